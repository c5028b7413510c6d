// Events reach the one sink, stored before emitEvent returns; a failing sink never fails what emitted.
import { afterEach, describe, expect, it } from "vitest";

import { emitEvent, setEventSink, type PortalEvent } from "@/lib/events";

afterEach(() => setEventSink(null));

describe("emitEvent", () => {
  it("does nothing without a sink, and waits for the sink when there is one", async () => {
    await emitEvent({ type: "report.deleted", data: {} });
    const seen: PortalEvent[] = [];
    setEventSink(async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen.push(event);
    });
    await emitEvent({ type: "report.deleted", data: { report: { id: 1 } } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.occurredAt).toBeInstanceOf(Date);
  });

  it("never throws when the sink fails", async () => {
    setEventSink(async () => {
      throw new Error("store down");
    });
    await expect(emitEvent({ type: "upstream.unavailable", data: { area: "items" } })).resolves.toBeUndefined();
  });
});
