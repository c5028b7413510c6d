// Notifications in the server process: each attempt of a delivery is a job of the process's job system (lib/jobs,
// started with notificationDeliveries among its kinds). A sweep, at start and every sweepMs, ends the holding of
// held deliveries whose time came and queues whatever is due without a job (an earlier process's, a trigger lost
// while Redis was away); kickNotificationDeliveries() does the same at once, for code that has just queued one.
import "server-only";

import { getServerContext } from "@/lib/auth/access";
import type { ServerConfig } from "@/lib/config/server";
import type { Db } from "@/lib/db";
import { trigger } from "@/lib/jobs";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { processSlot, processWide } from "@/lib/process-wide";
import { webhookSettings } from "@/lib/webhooks/settings";

import { getChannel, NotificationError, type NotificationSettings } from "./channels";
import { deliveryToSend, insertDelivery, takeDueDeliveries, type NotificationTimings } from "./deliveries";
import { attemptDelivery, notificationJob, queueDeliveries, sendEmail, type NotificationJobDeps } from "./delivery-job";
import type { NotificationMessage } from "./message";
import { NOTIFICATION_TICK_MS } from "./tick";

const queue: NotificationJobDeps["queue"] = (payload, options) => trigger(notificationDeliveries, payload, options);
const db = async () => (await getServerContext()).db;

/** The settings sending needs, from the configuration: the webhooks' address rules, the data key, PUBLIC_ORIGIN. */
export function notificationSettings(config: ServerConfig): NotificationSettings {
  const { allowPrivate, demoReceiver, sealKey } = webhookSettings(config);
  return { allowPrivate, demoReceiver, sealKey, publicOrigin: config.edge.publicOrigin };
}

// Production never varies them; a test that cannot wait the real schedule puts a speed-up in this slot before the
// server starts (injectIntoServer in tests/support/processes.ts).
// A test sets only what it speeds up: the rest keeps production's values.
export const notificationTimings = (): NotificationTimings => ({
  speedup: 1,
  sweepMs: 15_000,
  tickMs: NOTIFICATION_TICK_MS,
  ...processWide<Partial<NotificationTimings>>("notification-timings", () => ({})),
});
const timings = notificationTimings;

const deps: NotificationJobDeps = {
  db,
  settings: async () => notificationSettings((await getServerContext()).config),
  timings,
  queue,
};

/** The kind of job of notification deliveries, among the kinds startJobs() is given at start-up. */
export const notificationDeliveries = notificationJob(deps);

/**
 * Sends what is due now: held deliveries whose time came stop taking repeats, and every pending one due within
 * the next sweep is queued. Call it after queueing a delivery that is due at once.
 */
export async function kickNotificationDeliveries(): Promise<void> {
  const now = new Date();
  await queueDeliveries(await takeDueDeliveries(await db(), new Date(now.getTime() + timings().sweepMs), now), queue);
}

/** A channel's or the mail server's test message. */
function testMessage(what: string): NotificationMessage {
  return {
    topic: "test",
    title: "A test message from Gatehouse",
    text: `${what} receives Gatehouse's notifications: regressions and recoveries, upstream trouble, weekly digests.`,
    since: new Date().toISOString(),
    link: "/admin/notifications",
    tone: "info",
  };
}

/**
 * "Send a test message" to a channel: a delivery like any other, its first attempt made now (its retries, if it
 * fails, on the usual schedule); whether it was sent, why not, and its id.
 */
export async function sendChannelTest(
  store: Db,
  channelId: string,
): Promise<{ sent: boolean; error: string | null; deliveryId: string }> {
  const channel = await getChannel(store, channelId);
  if (!channel.enabled)
    throw new NotificationError("invalid", "The channel is disabled: enable it, then send the test message.");
  const now = new Date();
  // Due a little later than now, so that the sweep leaves it to this request's attempt.
  const id = await insertDelivery(
    store,
    {
      recipientKind: "channel",
      recipientId: channel.id,
      channelKind: channel.kind,
      topic: "test",
      messages: [testMessage(`The channel “${channel.name}”`)],
      status: "pending",
      notBefore: new Date(now.getTime() + 2 * timings().sweepMs),
    },
    now,
  );
  const delivery = await deliveryToSend(store, id, 0);
  const result = delivery ? await attemptDelivery(store, delivery, deps) : null;
  return { sent: result?.ok === true, error: result && !result.ok ? result.error : null, deliveryId: id };
}

/** The mail server's test: one mail to `to`, sent now as every mail is; whether it was sent, and why not. */
export async function sendSmtpTest(
  store: Db,
  config: ServerConfig,
  to: string,
): Promise<{ sent: boolean; error: string | null }> {
  const result = await sendEmail(store, [to], [testMessage(`The address ${to}`)], notificationSettings(config), null);
  return { sent: result.ok, error: result.ok ? null : result.error };
}

const SWEEPER = processSlot<NodeJS.Timeout>("notifications.sweeper");

/** Starts the delivery sweep (once a process; after startJobs): ./service.ts's startNotifications does. */
export function startNotificationDeliveries(): void {
  if (SWEEPER.get()) return;
  const sweep = () =>
    void kickNotificationDeliveries().catch((error: unknown) =>
      logEvent("error", "notification_sweep_failed", { error: describeError(error) }),
    );
  const sweeper = runOutsideRequestContext(() => setInterval(sweep, timings().sweepMs).unref());
  SWEEPER.set(sweeper);
  onShutdown("notification sweep", () => clearInterval(sweeper));
  sweep();
}
