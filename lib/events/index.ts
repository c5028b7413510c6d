// What happened in Gatehouse that someone outside may want to hear of (a purchase check, a finished bulk job, a
// report's change, an upstream going down): the rooms where it happens emit it here, after the fact, and the
// webhooks room (lib/webhooks, registered at start-up) turns each into one durable delivery per endpoint. This room
// sits low so that every room can emit without importing the webhooks, which stand above them.
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

const sinkSlot = processSlot<EventSink>("events.sink");

/** Where events go (lib/webhooks at start-up); null to stop sending them anywhere (tests). */
export function setEventSink(sink: EventSink | null): void {
  sinkSlot.set(sink ?? undefined);
}

/**
 * Hands an event to the sink and waits until it has stored it. Never throws: an event that cannot be stored is
 * logged at error level with its type, and what emitted it goes on (the fact has happened either way).
 */
export async function emitEvent(event: PortalEvent): Promise<void> {
  const sink = sinkSlot.get();
  if (!sink) return;
  try {
    await sink({ ...event, occurredAt: event.occurredAt ?? new Date() });
  } catch (error) {
    logEvent("error", "event_not_stored", { event: event.type, error: describeError(error) });
  }
}
