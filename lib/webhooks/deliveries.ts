// Webhook deliveries: one row per event per endpoint, written when the event happens (so a restart or a crashed
// instance loses none), held by a lease while one process sends it (like bulk jobs: lib/purchases/bulk/leases.ts),
// retried with exponential backoff and jitter for more than a day, and logged attempt by attempt. This is the
// queue's one interface: the runner (./runner.ts) only claims, sends and records through it.
import "server-only";

import { randomBytes } from "node:crypto";

import type { WebhookDeliveryOutput } from "@/lib/contract/webhooks";
import { isOneOf, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS, type WebhookEventType } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { WebhookDeliveryRow } from "@/lib/db/schema";

import { WebhookError } from "./endpoints";

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

/**
 * The event as it is sent: {type, timestamp, data}, written once, so every attempt signs the same bytes. One row
 * per enabled endpoint that wants the event. Returns how many were queued.
 */
export async function enqueueEvent(
  db: Db,
  type: WebhookEventType,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<number> {
  const endpoints = await db
    .selectFrom("webhook_endpoints")
    .select(["id", "events"])
    .where("disabled", "=", 0)
    .execute();
  const wanting = endpoints.filter((endpoint) => (JSON.parse(endpoint.events) as unknown[]).includes(type));
  if (wanting.length === 0) return 0;
  const at = now.toISOString();
  const payload = JSON.stringify({ type, timestamp: at, data });
  await db
    .insertInto("webhook_deliveries")
    .values(
      wanting.map((endpoint) => ({
        id: newDeliveryId(),
        endpoint_id: endpoint.id,
        event_type: type,
        payload,
        status: "pending",
        attempts: 0,
        created_at: at,
        next_attempt_at: at,
        last_attempt_at: null,
        last_status: null,
        lease_owner: null,
        lease_until: null,
      })),
    )
    .execute();
  return wanting.length;
}

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  url: string;
  payload: string;
  attempts: number;
}

/**
 * Sends to one endpoint at once, at most (per process). With its oldest due deliveries claimed first and this
 * cap, one slow or unreachable endpoint holds at most these slots, and every other endpoint's deliveries go on.
 */
export const MAX_SENDS_PER_ENDPOINT = 2;

/**
 * Takes up to `limit` deliveries that are due, whose endpoint is enabled, and that no live process holds (the
 * lease is free or expired). Each is ours until `leaseMs` from now; recordAttempt lets go. Fair per endpoint:
 * each endpoint's oldest due delivery comes before any endpoint's second, and an endpoint with `sending` (this
 * process's sends under way, by endpoint) at MAX_SENDS_PER_ENDPOINT gets none.
 */
export async function claimDueDeliveries(
  db: Db,
  owner: string,
  leaseMs: number,
  limit: number,
  now = new Date(),
  sending: ReadonlyMap<string, number> = new Map(),
): Promise<ClaimedDelivery[]> {
  const at = now.toISOString();
  const due = db
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
    .where("d.next_attempt_at", "<=", at)
    .where("e.disabled", "=", 0)
    .where((eb) => eb.or([eb("d.lease_until", "is", null), eb("d.lease_until", "<", at)]));
  const candidates = await db
    .selectFrom(due.as("due"))
    .selectAll()
    .where("place", "<=", MAX_SENDS_PER_ENDPOINT)
    .orderBy("place")
    .orderBy("next_attempt_at")
    .orderBy("id")
    .execute();
  const taken = new Map(sending);
  const claimed: ClaimedDelivery[] = [];
  for (const candidate of candidates) {
    if (claimed.length >= limit) break;
    const busy = taken.get(candidate.endpoint_id) ?? 0;
    if (busy >= MAX_SENDS_PER_ENDPOINT) continue;
    const result = await db
      .updateTable("webhook_deliveries")
      .set({ lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where("id", "=", candidate.id)
      .where("status", "=", "pending")
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      taken.set(candidate.endpoint_id, busy + 1);
      claimed.push({
        id: candidate.id,
        endpointId: candidate.endpoint_id,
        url: candidate.url,
        payload: candidate.payload,
        attempts: Number(candidate.attempts),
      });
    }
  }
  return claimed;
}

/** The next time a pending delivery is due, or null when none is (the runner sleeps until then). */
export async function nextDueAt(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.min("next_attempt_at").as("next"))
    .where("status", "=", "pending")
    .executeTakeFirst();
  return (row?.next as string | null | undefined) ?? null;
}

export interface AttemptRecord {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
}

export interface AttemptOutcome {
  /** Set when this failure disabled the endpoint (three days of failures): the admins must be told. */
  disabledEndpoint: { id: string; url: string; failingSince: string } | null;
}

/**
 * Writes one attempt's outcome and lets go of the delivery: delivered, pending again after the next wait, or
 * failed when no retry is left. The endpoint's failing_since starts at its first failure and clears on a success;
 * a failure three days after it disables the endpoint.
 */
export async function recordAttempt(
  db: Db,
  delivery: ClaimedDelivery,
  owner: string,
  attempt: AttemptRecord,
  timings: WebhookTimings,
  now = new Date(),
): Promise<AttemptOutcome> {
  const at = now.toISOString();
  const attempts = delivery.attempts + 1;
  const wait = attempt.ok ? null : retryDelayMs(attempts, timings);
  const status = attempt.ok ? "delivered" : wait === null ? "failed" : "pending";
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
  await db
    .updateTable("webhook_deliveries")
    .set({
      status,
      attempts,
      last_attempt_at: at,
      last_status: attempt.status,
      next_attempt_at: wait === null ? null : new Date(now.getTime() + wait).toISOString(),
      lease_owner: null,
      lease_until: null,
    })
    .where("id", "=", delivery.id)
    .where("lease_owner", "=", owner)
    .execute();

  if (attempt.ok) {
    await db
      .updateTable("webhook_endpoints")
      .set({ failing_since: null })
      .where("id", "=", delivery.endpointId)
      .where("failing_since", "is not", null)
      .execute();
    return { disabledEndpoint: null };
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
  if (!endpoint?.failing_since || Number(endpoint.disabled) === 1) return { disabledEndpoint: null };
  if (now.getTime() - Date.parse(endpoint.failing_since) < DISABLE_AFTER_FAILING_MS / timings.speedup)
    return { disabledEndpoint: null };
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
    disabledEndpoint:
      Number(disabled.numUpdatedRows) === 1
        ? { id: endpoint.id, url: endpoint.url, failingSince: endpoint.failing_since }
        : null,
  };
}

/** Lets go of every delivery this process holds (shutdown), so that the next process sends them at once. */
export async function releaseDeliveries(db: Db, owner: string): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set({ lease_owner: null, lease_until: null })
    .where("lease_owner", "=", owner)
    .execute();
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
  event: isOneOf(WEBHOOK_EVENTS, row.event_type) ? row.event_type : WEBHOOK_EVENTS[0],
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
