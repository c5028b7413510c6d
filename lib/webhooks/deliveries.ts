// Webhook deliveries: one row per event per endpoint, written when the event happens (so a restart or a crashed
// instance loses none), retried with exponential backoff and jitter for more than a day, and logged attempt by
// attempt. The rows are the record; each attempt is a job (./delivery-job.ts) whose id names the delivery, its
// attempt and its due time, so queueing it again (the sweep, "Send again") is harmless.
import "server-only";

import { randomBytes } from "node:crypto";

import type { WebhookDeliveryOutput } from "@/lib/contract/webhooks";
import {
  isOneOf,
  WEBHOOK_DELIVERY_EVENTS,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryEventType,
  type WebhookEventType,
} from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { WebhookDeliveryRow } from "@/lib/db/schema";

import { getEndpoint, WebhookError } from "./endpoints";

/**
 * Waits before each retry (the Standard Webhooks schedule): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — about 27.6
 * hours of tries in all, the first retry within a minute. Each wait varies by ±20 % (jitter) so that the retries
 * of many deliveries that failed together do not arrive together. After the last, the delivery has failed.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint whose attempts have all failed for this long is disabled, and the admins are told. */
export const DISABLE_AFTER_FAILING_MS = 3 * 86_400_000;

export interface WebhookTimings {
  /** Divides every retry wait and the three days before a disable: 1 in production, larger in tests. */
  speedup: number;
}

export function retryDelayMs(failedAttempts: number, timings: WebhookTimings, random = Math.random): number | null {
  const base = RETRY_DELAYS_MS[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round((base * (0.8 + 0.4 * random())) / timings.speedup);
}

const newDeliveryId = () => `msg_${randomBytes(16).toString("hex")}`;

/** A pending delivery, as its next attempt needs it. */
export interface PendingDelivery {
  id: string;
  endpointId: string;
  url: string;
  payload: string;
  attempts: number;
  nextAttemptAt: string;
}

/**
 * The event as it is sent: {type, timestamp, data}, written once, so every attempt signs the same bytes. One row
 * per enabled endpoint that wants the event. Returns the deliveries queued.
 */
export async function enqueueEvent(
  db: Db,
  type: WebhookEventType,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<PendingDelivery[]> {
  const endpoints = await db
    .selectFrom("webhook_endpoints")
    .select(["id", "url", "events"])
    .where("disabled", "=", 0)
    .execute();
  const wanting = endpoints.filter((endpoint) => (JSON.parse(endpoint.events) as unknown[]).includes(type));
  return insertDeliveries(db, wanting, type, data, now);
}

/**
 * "Send test event": one webhook.test delivery to this endpoint (enabled: a paused one sends nothing), queued like
 * every event's, so that it is signed, retried and logged the same way.
 */
export async function enqueueTestEvent(db: Db, endpointId: string, now = new Date()): Promise<PendingDelivery> {
  const endpoint = await getEndpoint(db, endpointId);
  if (!endpoint.enabled)
    throw new WebhookError("invalid", "The endpoint is paused or disabled: enable it, then send the test event.");
  const data = { endpoint_id: endpoint.id, message: "A test event from Gatehouse: this endpoint receives events." };
  const [delivery] = await insertDeliveries(db, [endpoint], WEBHOOK_TEST_EVENT, data, now);
  return delivery!;
}

async function insertDeliveries(
  db: Db,
  endpoints: ReadonlyArray<{ id: string; url: string }>,
  type: WebhookDeliveryEventType,
  data: Record<string, unknown>,
  now: Date,
): Promise<PendingDelivery[]> {
  if (endpoints.length === 0) return [];
  const at = now.toISOString();
  const payload = JSON.stringify({ type, timestamp: at, data });
  const queued = endpoints.map((endpoint) => ({
    id: newDeliveryId(),
    endpointId: endpoint.id,
    url: endpoint.url,
    payload,
    attempts: 0,
    nextAttemptAt: at,
  }));
  await db
    .insertInto("webhook_deliveries")
    .values(
      queued.map((delivery) => ({
        id: delivery.id,
        endpoint_id: delivery.endpointId,
        event_type: type,
        payload,
        status: "pending",
        attempts: 0,
        created_at: at,
        next_attempt_at: at,
        last_attempt_at: null,
        last_status: null,
      })),
    )
    .execute();
  return queued;
}

/**
 * Sends to one endpoint at once, at most (per process). With this cap, one slow or unreachable endpoint holds at
 * most these of the sending slots, and every other endpoint's deliveries go on.
 */
export const MAX_SENDS_PER_ENDPOINT = 2;

/**
 * The pending deliveries due by `until` whose endpoint is enabled (of one endpoint, when given), fairly ordered:
 * each endpoint's oldest before any endpoint's second.
 */
export async function dueDeliveries(db: Db, until: Date, endpointId?: string): Promise<PendingDelivery[]> {
  let due = db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .select((eb) => [
      "d.id",
      "d.endpoint_id",
      "e.url",
      "d.payload",
      "d.attempts",
      "d.next_attempt_at",
      eb.fn
        .agg<number>("row_number")
        .over((over) => over.partitionBy("d.endpoint_id").orderBy("d.next_attempt_at").orderBy("d.id"))
        .as("place"),
    ])
    .where("d.status", "=", "pending")
    .where("d.next_attempt_at", "<=", until.toISOString())
    .where("e.disabled", "=", 0);
  if (endpointId) due = due.where("d.endpoint_id", "=", endpointId);
  const rows = await db
    .selectFrom(due.as("due"))
    .selectAll()
    .orderBy("place")
    .orderBy("next_attempt_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    url: row.url,
    payload: row.payload,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at!,
  }));
}

/** The delivery if its attempt `attempts + 1` is still to make: pending, not made since, its endpoint enabled. */
export async function deliveryToSend(db: Db, id: string, attempts: number): Promise<PendingDelivery | null> {
  const row = await db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .select(["d.id", "d.endpoint_id", "e.url", "d.payload", "d.attempts", "d.next_attempt_at"])
    .where("d.id", "=", id)
    .where("d.status", "=", "pending")
    .where("d.attempts", "=", attempts)
    .where("e.disabled", "=", 0)
    .executeTakeFirst();
  if (!row?.next_attempt_at) return null;
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    url: row.url,
    payload: row.payload,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
  };
}

export interface AttemptRecord {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
}

export interface AttemptOutcome {
  /** False when another run recorded this attempt first (nothing was written). */
  recorded: boolean;
  /** The delivery's next attempt, when it has one. */
  next: PendingDelivery | null;
  /** Set when this failure disabled the endpoint (three days of failures): the admins must be told. */
  disabledEndpoint: { id: string; url: string; failingSince: string } | null;
}

/**
 * Writes one attempt's outcome, once (a run that repeats an attempt already recorded writes nothing): delivered,
 * pending again after the next wait, or failed when no retry is left. The endpoint's failing_since starts at its
 * first failure and clears on a success; a failure three days after it disables the endpoint.
 */
export async function recordAttempt(
  db: Db,
  delivery: PendingDelivery,
  attempt: AttemptRecord,
  timings: WebhookTimings,
  now = new Date(),
): Promise<AttemptOutcome> {
  const at = now.toISOString();
  const attempts = delivery.attempts + 1;
  const wait = attempt.ok ? null : retryDelayMs(attempts, timings);
  const status = attempt.ok ? "delivered" : wait === null ? "failed" : "pending";
  const nextAttemptAt = wait === null ? null : new Date(now.getTime() + wait).toISOString();
  const written = await db
    .updateTable("webhook_deliveries")
    .set({
      status,
      attempts,
      last_attempt_at: at,
      last_status: attempt.status,
      next_attempt_at: nextAttemptAt,
    })
    .where("id", "=", delivery.id)
    .where("status", "=", "pending")
    .where("attempts", "=", delivery.attempts)
    .executeTakeFirst();
  if (Number(written.numUpdatedRows) !== 1) return { recorded: false, next: null, disabledEndpoint: null };
  const next = nextAttemptAt === null ? null : { ...delivery, attempts, nextAttemptAt };
  await db
    .insertInto("webhook_attempts")
    .values({
      delivery_id: delivery.id,
      endpoint_id: delivery.endpointId,
      at,
      ok: attempt.ok ? 1 : 0,
      status_code: attempt.status,
      duration_ms: attempt.durationMs,
      error: attempt.error,
      response_excerpt: attempt.excerpt,
    })
    .execute();

  if (attempt.ok) {
    await db
      .updateTable("webhook_endpoints")
      .set({ failing_since: null })
      .where("id", "=", delivery.endpointId)
      .where("failing_since", "is not", null)
      .execute();
    return { recorded: true, next, disabledEndpoint: null };
  }
  await db
    .updateTable("webhook_endpoints")
    .set({ failing_since: at })
    .where("id", "=", delivery.endpointId)
    .where("failing_since", "is", null)
    .execute();
  const endpoint = await db
    .selectFrom("webhook_endpoints")
    .select(["id", "url", "failing_since", "disabled"])
    .where("id", "=", delivery.endpointId)
    .executeTakeFirst();
  if (!endpoint?.failing_since || Number(endpoint.disabled) === 1)
    return { recorded: true, next, disabledEndpoint: null };
  if (now.getTime() - Date.parse(endpoint.failing_since) < DISABLE_AFTER_FAILING_MS / timings.speedup)
    return { recorded: true, next, disabledEndpoint: null };
  const disabled = await db
    .updateTable("webhook_endpoints")
    .set({
      disabled: 1,
      disabled_at: at,
      disabled_reason: `Every delivery failed from ${endpoint.failing_since} for three days; deliveries stopped. Fix the receiver, then enable the endpoint again.`,
    })
    .where("id", "=", endpoint.id)
    .where("disabled", "=", 0)
    .executeTakeFirst();
  return {
    recorded: true,
    next,
    disabledEndpoint:
      Number(disabled.numUpdatedRows) === 1
        ? { id: endpoint.id, url: endpoint.url, failingSince: endpoint.failing_since }
        : null,
  };
}

/** "Send again": the same delivery (same webhook-id, same body), due now, with its attempts kept in the log. */
export async function redeliver(db: Db, endpointId: string, deliveryId: string, now = new Date()): Promise<void> {
  const result = await db
    .updateTable("webhook_deliveries")
    .set({ status: "pending", next_attempt_at: now.toISOString() })
    .where("id", "=", deliveryId)
    .where("endpoint_id", "=", endpointId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1)
    throw new WebhookError("not_found", `There is no delivery ${deliveryId} for this endpoint.`);
}

const toDelivery = (row: WebhookDeliveryRow) => ({
  id: row.id,
  event: isOneOf(WEBHOOK_DELIVERY_EVENTS, row.event_type) ? row.event_type : WEBHOOK_TEST_EVENT,
  status: isOneOf(WEBHOOK_DELIVERY_STATUSES, row.status) ? row.status : "pending",
  attempts: Number(row.attempts),
  created_at: row.created_at,
  next_attempt_at: row.status === "pending" ? row.next_attempt_at : null,
  payload: row.payload,
});

/** The endpoint's latest deliveries, newest first, each with its attempts (newest first). */
export async function deliveryLog(db: Db, endpointId: string, limit = 50): Promise<WebhookDeliveryOutput[]> {
  const rows = await db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("endpoint_id", "=", endpointId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom("webhook_attempts")
    .selectAll()
    .where(
      "delivery_id",
      "in",
      rows.map((row) => row.id),
    )
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({
    ...toDelivery(row),
    log: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => ({
        at: attempt.at,
        ok: Number(attempt.ok) === 1,
        status: attempt.status_code === null ? null : Number(attempt.status_code),
        duration_ms: Number(attempt.duration_ms),
        error: attempt.error,
        response_excerpt: attempt.response_excerpt,
      })),
  }));
}
