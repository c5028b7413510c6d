// Webhook deliveries as jobs (lib/jobs): each attempt of a delivery is a job, due at the delivery's next attempt,
// whose id names the delivery, the attempt and that time — so a delivery queued again (the sweep, "Send again",
// an endpoint enabled again) is one job, and a job made stale by another run finds its attempt made and stops.
// A job checks the address it sends to, signs the attempt, sends it, records the outcome once, and queues the
// next attempt when there is one. Whatever a lost trigger left without a job, the sweep (queueDueDeliveries)
// queues again: the rows are the record.
import "server-only";

import { recordAudit } from "@/lib/auth/audit";
import type { Db } from "@/lib/db";
import { defineJob, type JobDefinition } from "@/lib/jobs";
import {
  attemptJobOf,
  attemptPayload,
  queueAttempts,
  type AttemptPayload,
  type QueueAttempt,
} from "@/lib/jobs/attempts";
import { perTargetCap } from "@/lib/jobs/per-target-cap";
import { describeError, logEvent } from "@/lib/log";
import { inSpan, SpanKind, type SpanHandle } from "@/lib/telemetry";

import {
  deliveryToSend,
  dueDeliveries,
  MAX_SENDS_PER_ENDPOINT,
  recordAttempt,
  type PendingDelivery,
  type WebhookTimings,
} from "./deliveries";
import { signingSecrets, type WebhookSettings } from "./endpoints";
import { signedHeaders } from "./sign";
import { resolveTarget, sendToTarget } from "./target";

const KIND = "webhook-delivery";
/** Deliveries sent at once (at most MAX_SENDS_PER_ENDPOINT of them to one endpoint by one process). */
const CONCURRENT_SENDS = 8;
/** A delivery to an endpoint already at its cap here waits this long before it asks again. */
const ENDPOINT_BUSY_WAIT_MS = 500;

export interface DeliveryJobDeps {
  db: () => Promise<Db>;
  settings: () => Promise<WebhookSettings>;
  timings: () => WebhookTimings;
  /** Adds the job of a delivery's next attempt (trigger() in production). */
  queue: QueueAttempt;
}

const dueOf = (delivery: Pick<PendingDelivery, "id" | "attempts" | "nextAttemptAt">) => ({
  id: delivery.id,
  attempts: delivery.attempts,
  dueAt: delivery.nextAttemptAt,
});

/** The job of the attempt `delivery` is due to make next. */
export function attemptJob(delivery: Pick<PendingDelivery, "id" | "attempts" | "nextAttemptAt">) {
  return attemptJobOf("webhook", dueOf(delivery));
}

/** Queues a job for each delivery (lib/jobs/attempts.ts). */
export async function queueDeliveries(deliveries: readonly PendingDelivery[], queue: QueueAttempt): Promise<void> {
  await queueAttempts("webhook", deliveries.map(dueOf), queue);
}

/** Queues every pending delivery due by `until` (of one endpoint, when given). */
export async function queueDueDeliveries(
  db: Db,
  queue: DeliveryJobDeps["queue"],
  until: Date,
  endpointId?: string,
): Promise<void> {
  await queueDeliveries(await dueDeliveries(db, until, endpointId), queue);
}

/** The kind: one attempt of one delivery. */
export function deliveryJob(deps: DeliveryJobDeps): JobDefinition<AttemptPayload> {
  /** This process's sends under way, by endpoint (lib/jobs/per-target-cap.ts). */
  const cap = perTargetCap(MAX_SENDS_PER_ENDPOINT, ENDPOINT_BUSY_WAIT_MS);
  return defineJob({
    kind: KIND,
    payload: attemptPayload,
    concurrency: CONCURRENT_SENDS,
    async handle({ delivery: id, attempts }) {
      const db = await deps.db();
      const delivery = await deliveryToSend(db, id, attempts);
      // Made already, delivered, failed, or its endpoint disabled (enabling it queues its deliveries again).
      if (!delivery) return { kind: "done" };
      return cap.run(delivery.endpointId, async () => {
        const next = await send(db, delivery, deps);
        if (next) await queueDeliveries([next], deps.queue);
        return { kind: "done" };
      });
    },
  });
}

/** Sends one attempt and records it, in a span of the job's trace (the endpoint, the attempt, its status). */
function send(db: Db, delivery: PendingDelivery, deps: DeliveryJobDeps): Promise<PendingDelivery | null> {
  const attributes = {
    "gatehouse.webhook.endpoint": delivery.endpointId,
    "gatehouse.webhook.attempt": delivery.attempts + 1,
  };
  return inSpan("webhook.deliver", attributes, (span) => sendAttempt(db, delivery, deps, span), {
    kind: SpanKind.CLIENT,
  });
}

async function sendAttempt(
  db: Db,
  delivery: PendingDelivery,
  deps: DeliveryJobDeps,
  span: SpanHandle,
): Promise<PendingDelivery | null> {
  const settings = await deps.settings();
  const checked = await resolveTarget(delivery.url, settings);
  const secrets = await signingSecrets(db, delivery.endpointId, settings.sealKey);
  const attempt = !checked.ok
    ? { ok: false, status: null, durationMs: 0, error: `not sent: the URL ${checked.reason}`, excerpt: null }
    : secrets.length === 0
      ? {
          ok: false,
          status: null,
          durationMs: 0,
          // The operator's cause (PURCHASE_CODE_HASH_KEY changed) is in docs/operations.md, not in the admin's log.
          error: "not sent: the signing secret cannot be read (the portal's data key changed); rotate the secret",
          excerpt: null,
        }
      : await sendToTarget(checked.target, signedHeaders(delivery.id, delivery.payload, secrets), delivery.payload);
  span.set({ "gatehouse.webhook.ok": attempt.ok, "http.response.status_code": attempt.status });
  const { recorded, next, disabledEndpoint } = await recordAttempt(db, delivery, attempt, deps.timings());
  if (!recorded) return null;
  logEvent(attempt.ok ? "info" : "warn", "webhook_attempt", {
    delivery: delivery.id,
    endpoint: delivery.endpointId,
    attempt: delivery.attempts + 1,
    ok: attempt.ok,
    status: attempt.status,
    error: attempt.error,
  });
  if (disabledEndpoint) {
    // The admins hear of it in the audit log and on the webhooks page (the endpoint's disabled_reason).
    logEvent("error", "webhook_endpoint_disabled", {
      endpoint: disabledEndpoint.id,
      failing_since: disabledEndpoint.failingSince,
    });
    await recordAudit(db, {
      userId: null,
      userEmail: null,
      action: "webhook.disabled",
      target: { type: "webhook", id: disabledEndpoint.id, label: disabledEndpoint.url },
      outcome: "failure",
      requestId: null,
      detail: { failing_since: disabledEndpoint.failingSince },
    }).catch((error: unknown) =>
      logEvent("error", "audit_write_failed", { action: "webhook.disabled", error: describeError(error) }),
    );
  }
  return next;
}
