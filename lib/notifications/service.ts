// The rules in the server process: their dependencies read from the server's context, the tick's kind of job
// (given to startJobs() at start-up) and its first tick, and the sink "notifications" of lib/events that hands each
// event to the rules.
import "server-only";

import { getServerContext } from "@/lib/auth/access";
import { setEventSink, type PortalEvent } from "@/lib/events";
import { trigger } from "@/lib/jobs";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { processSlot, processWide } from "@/lib/process-wide";

import { notifyOfEvent, type RulesDeps } from "./rules";
import { getNotificationSettings } from "./settings";
import { NOTIFICATION_TICK_MS, notificationTickJob, notificationTicks as tickKind } from "./tick";

/** Production never varies it; a test that cannot wait puts a shorter tick in this slot (injectIntoServer). */
const timings = () => processWide<{ tickMs: number }>("notification-timings", () => ({ tickMs: NOTIFICATION_TICK_MS }));

/** Part A's delivery kick, given at start-up (none until then: its sweep finds the rows anyway). */
const KICK = processSlot<() => void>("notifications.kick");

/** The rules' dependencies now: the store, the clock, the settings, the kick. */
export async function serverRulesDeps(): Promise<RulesDeps> {
  const { db } = await getServerContext();
  return { db, now: () => new Date(), settings: await getNotificationSettings(db), kick: KICK.get() };
}

/** An event of lib/events for the rules (a failure is logged: the event has happened either way). */
async function notifyOfServerEvent(event: PortalEvent): Promise<void> {
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
 * Starts the rules (instrumentation.ts, after startJobs; a second call does nothing): events of lib/events go to
 * them (the sink "notifications", beside the webhooks'), and the current slot's tick is triggered. `kick` is part
 * A's delivery kick: the rules call it after writing rows.
 */
export function startNotifications(kick?: () => void): void {
  if (STARTED.get()) return;
  STARTED.set(true);
  if (kick) KICK.set(kick);
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
