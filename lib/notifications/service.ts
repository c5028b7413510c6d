// The rules in the server process: their dependencies read from the server's context, the tick's kind of job
// (given to startJobs() at start-up) and its first tick, and the sink "notifications" of lib/events that hands each
// event to the rules.
import "server-only";

import { getServerContext } from "@/lib/auth/access";
import { setEventSink, type PortalEvent } from "@/lib/events";
import { trigger } from "@/lib/jobs";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { processSlot } from "@/lib/process-wide";

import { kickNotificationDeliveries, notificationTimings, startNotificationDeliveries } from "./index";
import { notifyOfEvent, RULES_EVENTS, type RulesDeps } from "./rules";
import { getNotificationSettings } from "./settings";
import { notificationTickJob, notificationTicks as tickKind } from "./tick";

const timings = notificationTimings;

/** Sends what is due at once after the rules wrote rows (the delivery sweep would find them anyway). */
const kick = (): void =>
  void kickNotificationDeliveries().catch((error: unknown) =>
    logEvent("error", "notification_sweep_failed", { error: describeError(error) }),
  );

/** The rules' dependencies now: the store, the clock, the settings, the kick. */
export async function serverRulesDeps(): Promise<RulesDeps> {
  const { db } = await getServerContext();
  return { db, now: () => new Date(), settings: await getNotificationSettings(db), kick };
}

/** An event of lib/events for the rules (a failure is logged: the event has happened either way). */
async function notifyOfServerEvent(event: PortalEvent): Promise<void> {
  // Most events (every purchase check) are not the rules': they cost no read of the store.
  if (!RULES_EVENTS.has(event.type)) return;
  try {
    await notifyOfEvent(await serverRulesDeps(), event);
  } catch (error) {
    logEvent("error", "notification_rules_failed", { event: event.type, error: describeError(error) });
  }
}

/** The kind of job of the rules' ticks, among the kinds startJobs() is given at start-up. */
export const notificationTicks = tickKind({
  rules: serverRulesDeps,
  queueTick: (payload, options) => trigger(notificationTicks, payload, options),
  tickMs: () => timings().tickMs,
});

const STARTED = processSlot<true>("notifications.ticks");

/**
 * Starts the notifications (instrumentation.ts, after startJobs; a second call does nothing): the delivery sweep
 * (./index.ts), events of lib/events to the rules (the sink "notifications", beside the webhooks'), and the current
 * slot's tick.
 */
export function startNotifications(): void {
  if (STARTED.get()) return;
  STARTED.set(true);
  startNotificationDeliveries();
  setEventSink("notifications", notifyOfServerEvent);
  const startTicks = (): void => {
    const first = notificationTickJob(Date.now(), timings().tickMs);
    void trigger(notificationTicks, first.payload, first.options).catch((error: unknown) => {
      logEvent("error", "notification_tick_failed", { error: describeError(error) });
      runOutsideRequestContext(() => setTimeout(startTicks, timings().tickMs).unref());
    });
  };
  startTicks();
}
