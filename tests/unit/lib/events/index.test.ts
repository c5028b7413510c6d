// Events reach every sink, stored before emitEvent returns; a failing sink never fails what emitted, nor the others.
import { afterEach, describe, expect, it } from "vitest";

import { emitEvent, setEventSink, type PortalEvent } from "@/lib/events";

afterEach(() => {
  setEventSink("test", null);
  setEventSink("other", null);
});

describe("emitEvent", () => {
  it("does nothing without a sink, and waits for the sink when there is one", async () => {
    await emitEvent({ type: "report.deleted", data: {} });
    const seen: PortalEvent[] = [];
    setEventSink("test", async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen.push(event);
    });
    await emitEvent({ type: "report.deleted", data: { report: { id: 1 } } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.occurredAt).toBeInstanceOf(Date);
  });

  it("never throws when a sink fails, and the other sinks still get the event", async () => {
    setEventSink("test", async () => {
      throw new Error("store down");
    });
    const seen: PortalEvent[] = [];
    setEventSink("other", async (event) => void seen.push(event));
    await expect(emitEvent({ type: "upstream.unavailable", data: { area: "items" } })).resolves.toBeUndefined();
    expect(seen.map((event) => event.type)).toEqual(["upstream.unavailable"]);
  });

  it("stops sending to a sink once it is removed", async () => {
    const seen: PortalEvent[] = [];
    setEventSink("test", async (event) => void seen.push(event));
    setEventSink("test", null);
    await emitEvent({ type: "report.deleted", data: {} });
    expect(seen).toEqual([]);
  });
});
