// Webhooks in the server process: each attempt of a delivery is a job of the process's job system (lib/jobs,
// started with webhookDeliveries among its kinds). At start-up, events (lib/events) start going into the store as
// deliveries, each queued at once ("Send test event" too, to one endpoint); a sweep queues whatever is due without a job (an earlier process's pending
// deliveries, a trigger lost while Redis was away) at start and every SWEEP_MS.
import "server-only";

import { getServerContext } from "@/lib/auth/access";
import { setEventSink } from "@/lib/events";
import { trigger } from "@/lib/jobs";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { processSlot, processWide } from "@/lib/process-wide";

import { enqueueEvent, enqueueTestEvent, redeliver, type WebhookTimings } from "./deliveries";
import { deliveryJob, queueDeliveries, queueDueDeliveries, type DeliveryJobDeps } from "./delivery-job";
import { webhookSettings } from "./settings";

/** Each sweep queues every pending delivery due within this (a later one waits for a later sweep). */
const SWEEP_MS = 15_000;

const queue: DeliveryJobDeps["queue"] = (payload, options) => trigger(webhookDeliveries, payload, options);
const db = async () => (await getServerContext()).db;

/** The kind of job of webhook deliveries, among the kinds startJobs() is given at start-up. */
export const webhookDeliveries = deliveryJob({
  db,
  settings: async () => webhookSettings((await getServerContext()).config),
  // Production never varies it; a test that cannot wait the real schedule puts a speed-up in this slot
  // before the server starts (injectIntoServer in tests/support/processes.ts).
  timings: () => processWide<WebhookTimings>("webhook-timings", () => ({ speedup: 1 })),
  queue,
});

/** Queues what is due now, or soon (of one endpoint: enabled again, its waiting deliveries go now). */
export async function queueWebhookDeliveries(endpointId?: string): Promise<void> {
  await queueDueDeliveries(await db(), queue, new Date(Date.now() + SWEEP_MS), endpointId);
}

/** "Send again": the delivery is due now, and queued. */
export async function sendWebhookAgain(endpointId: string, deliveryId: string): Promise<void> {
  await redeliver(await db(), endpointId, deliveryId);
  await queueWebhookDeliveries(endpointId);
}

/** "Send test event": a webhook.test to this one endpoint, queued now; its delivery id. */
export async function sendTestEvent(endpointId: string): Promise<string> {
  const delivery = await enqueueTestEvent(await db(), endpointId);
  await queueDeliveries([delivery], queue);
  return delivery.id;
}

const SWEEPER = processSlot<NodeJS.Timeout>("webhooks.sweeper");

/** Starts taking events as deliveries and the sweep (once a process; after startJobs). */
export function startWebhooks(): void {
  if (SWEEPER.get()) return;
  setEventSink("webhooks", async (event) => {
    await queueDeliveries(await enqueueEvent(await db(), event.type, event.data, event.occurredAt), queue);
  });
  const sweep = () =>
    void queueWebhookDeliveries().catch((error: unknown) =>
      logEvent("error", "webhook_sweep_failed", { error: describeError(error) }),
    );
  const sweeper = runOutsideRequestContext(() => setInterval(sweep, SWEEP_MS).unref());
  SWEEPER.set(sweeper);
  onShutdown("webhook sweep", () => clearInterval(sweeper));
  sweep();
}
