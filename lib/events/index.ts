// What happened in Gatehouse that someone outside may want to hear of (a purchase check, a finished bulk job, a
// report's change, an upstream going down): the rooms where it happens emit it here, after the fact, and each sink
// registered at start-up takes it: the webhooks room (lib/webhooks) turns it into one durable delivery per
// endpoint, the notifications room (lib/notifications) into messages for the people and channels subscribed. This
// room sits low so that every room can emit without importing those, which stand above them.
import { describeError, logEvent } from "@/lib/log";
import type { WebhookEventType } from "@/lib/contract/values";
import { processSlot } from "@/lib/process-wide";

export interface PortalEvent {
  type: WebhookEventType;
  /** The event's facts: never a full purchase code, a key or a secret. */
  data: Record<string, unknown>;
  occurredAt?: Date;
}

export type EventSink = (event: PortalEvent) => Promise<void>;

/** The sinks by name: the webhooks' and the notifications' (registered at start-up), a test's. */
const sinksSlot = processSlot<Map<string, EventSink>>("events.sinks");

function sinks(): Map<string, EventSink> {
  let found = sinksSlot.get();
  if (!found) sinksSlot.set((found = new Map()));
  return found;
}

/** Where events go: the sink named `name` (lib/webhooks' "webhooks" at start-up); null to remove it (tests). */
export function setEventSink(name: string, sink: EventSink | null): void {
  if (sink) sinks().set(name, sink);
  else sinks().delete(name);
}

/**
 * Hands an event to every sink and waits until each has stored it. Never throws: an event that a sink cannot
 * store is logged at error level with its type and the sink's name, and what emitted it goes on (the fact has
 * happened either way).
 */
export async function emitEvent(event: PortalEvent): Promise<void> {
  const all = [...sinks()];
  if (all.length === 0) return;
  const stamped = { ...event, occurredAt: event.occurredAt ?? new Date() };
  await Promise.all(
    all.map(async ([name, sink]) => {
      try {
        await sink(stamped);
      } catch (error) {
        logEvent("error", "event_not_stored", { event: event.type, sink: name, error: describeError(error) });
      }
    }),
  );
}
