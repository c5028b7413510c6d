// The demo's webhook receiver: it records what it is sent and answers, in words the delivery log shows, what it got.
import { describe, expect, it } from "vitest";

import { createReceiver } from "@/lib/sandbox/receiver";

describe("the sandbox's webhook receiver", () => {
  it("records a delivery, answers what it got, and lists what came", () => {
    const receiver = createReceiver(() => new Date("2026-11-28T10:00:00Z"));
    const body = Buffer.from('{"type":"webhook.test","timestamp":"2026-11-28T10:00:00Z","data":{}}');
    const answer = receiver.answer("POST", { "webhook-id": "msg_1", "webhook-signature": "v1,abc" }, body);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe(`Received webhook.test (msg_1), ${body.length} bytes, signed.`);
    const listed = JSON.parse(receiver.answer("GET", {}, Buffer.alloc(0)).body.toString()) as { received: unknown[] };
    expect(listed.received).toEqual([
      {
        at: "2026-11-28T10:00:00.000Z",
        id: "msg_1",
        type: "webhook.test",
        signed: true,
        bytes: body.length,
        body: body.toString(),
      },
    ]);
    expect(receiver.answer("POST", {}, Buffer.from("not json")).body.toString()).toMatch(
      /^Received a body that is not an event \(no webhook-id\), 8 bytes, not signed\.$/,
    );
  });
});
