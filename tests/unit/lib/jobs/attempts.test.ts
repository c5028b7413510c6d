// A delivery's attempts as jobs: one id per delivery, attempt and due time (so queueing again is one job), and a
// queue that fails is logged, not thrown (the sweep queues again).
import { describe, expect, it } from "vitest";

import { attemptJobOf, queueAttempts, type AttemptPayload } from "@/lib/jobs/attempts";

const due = { id: "d1", attempts: 2, dueAt: "2026-12-28T09:00:00.000Z" };

describe("attemptJobOf", () => {
  it("names the delivery, the attempt and its time, under the kind's prefix", () => {
    expect(attemptJobOf("webhook", due)).toEqual({
      payload: { delivery: "d1", attempts: 2 },
      options: { id: `webhook-d1-2-${Date.parse(due.dueAt)}`, runAt: new Date(due.dueAt) },
    });
  });
});

describe("queueAttempts", () => {
  it("queues each attempt once, and goes on past one the queue refuses", async () => {
    const queued: AttemptPayload[] = [];
    await queueAttempts("notification", [due, { ...due, id: "d2" }, { ...due, id: "d3" }], async (payload) => {
      if (payload.delivery === "d2") throw new Error("queue down");
      queued.push(payload);
    });
    expect(queued.map((payload) => payload.delivery)).toEqual(["d1", "d3"]);
  });
});
