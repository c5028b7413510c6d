// Notification deliveries: one row per message (or several merged) per recipient, the record of what is sent.
// A row is `held` while it may still take repeats (the merge window, quiet hours: lib/notifications' rules write
// and merge those), then `pending` once due: the sweep moves it with `UPDATE … WHERE status = 'held'`, so a merge
// that raced it finds nothing to merge into. Each attempt is a job (./delivery-job.ts); its outcome is written
// once (sent, pending again after the next wait, failed when no retry is left, or dropped when its recipient is
// gone), and logged in notification_attempts. Retries follow the webhooks' schedule (lib/webhooks/deliveries.ts).
import "server-only";

import { randomUUID } from "node:crypto";

import type { NotificationDeliveryOutput } from "@/lib/contract/notifications";
import {
  isOneOf,
  NOTIFICATION_DELIVERY_STATUSES,
  NOTIFICATION_SUBSCRIBER_KINDS,
  type NotificationChannelKind,
  type NotificationDeliveryStatus,
} from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { retryDelayMs, type WebhookTimings } from "@/lib/webhooks/deliveries";

import { summaryOf, type NotificationMessage } from "./message";

/** What production never varies and tests speed up: the retry waits (divided by speedup) and the sweep's period. */
export interface NotificationTimings extends WebhookTimings {
  /** How often the sweep looks for due deliveries (held ones whose time came, pending ones without a job). */
  sweepMs: number;
  /** How often the rules' tick runs (./tick.ts): results recorded meanwhile, upstreams down long enough, digests. */
  tickMs: number;
}

/** A due delivery, as its attempt needs it. */
export interface DueDelivery {
  id: string;
  attempts: number;
  notBefore: string;
}

export interface DeliveryToSend extends DueDelivery {
  recipientKind: "user" | "channel";
  recipientId: string;
  channelKind: NotificationChannelKind;
  topic: string;
  messages: NotificationMessage[];
}

export interface NewDelivery {
  recipientKind: "user" | "channel";
  recipientId: string;
  channelKind: NotificationChannelKind;
  topic: string;
  messages: NotificationMessage[];
  status: Extract<NotificationDeliveryStatus, "held" | "pending">;
  notBefore: Date;
  mergeKey?: string | null;
}

/** Writes a delivery; its id. */
export async function insertDelivery(db: Db, delivery: NewDelivery, now = new Date()): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("notification_deliveries")
    .values({
      id,
      recipient_kind: delivery.recipientKind,
      recipient_id: delivery.recipientId,
      channel_kind: delivery.channelKind,
      topic: delivery.topic,
      merge_key: delivery.mergeKey ?? null,
      messages: JSON.stringify(delivery.messages),
      status: delivery.status,
      attempts: 0,
      not_before: delivery.notBefore.toISOString(),
      created_at: now.toISOString(),
      last_attempt_at: null,
      last_error: null,
      sent_at: null,
    })
    .execute();
  return id;
}

/**
 * Ends the holding of every held delivery whose time has come (they take no more repeats), then answers every
 * pending one due by `until`, oldest first.
 */
export async function takeDueDeliveries(db: Db, until: Date, now = new Date()): Promise<DueDelivery[]> {
  await db
    .updateTable("notification_deliveries")
    .set({ status: "pending" })
    .where("status", "=", "held")
    .where("not_before", "<=", now.toISOString())
    .execute();
  const rows = await db
    .selectFrom("notification_deliveries")
    .select(["id", "attempts", "not_before"])
    .where("status", "=", "pending")
    .where("not_before", "<=", until.toISOString())
    .orderBy("not_before")
    .orderBy("id")
    .limit(500)
    .execute();
  return rows.map((row) => ({ id: row.id, attempts: Number(row.attempts), notBefore: row.not_before }));
}

/** The delivery if its attempt `attempts + 1` is still to make (pending, not made since). */
export async function deliveryToSend(db: Db, id: string, attempts: number): Promise<DeliveryToSend | null> {
  const row = await db
    .selectFrom("notification_deliveries")
    .selectAll()
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("attempts", "=", attempts)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    attempts: Number(row.attempts),
    notBefore: row.not_before,
    recipientKind: isOneOf(NOTIFICATION_SUBSCRIBER_KINDS, row.recipient_kind) ? row.recipient_kind : "channel",
    recipientId: row.recipient_id,
    channelKind: row.channel_kind === "slack" || row.channel_kind === "teams" ? row.channel_kind : "email",
    topic: row.topic,
    messages: parseMessages(row.messages),
  };
}

function parseMessages(text: string): NotificationMessage[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as NotificationMessage[]) : [];
  } catch {
    return [];
  }
}

/** One attempt's outcome: sent, failed (retried while retries are left), or dropped (never retried). */
export type AttemptResult = { ok: true } | { ok: false; error: string; drop?: boolean };

/**
 * Writes one attempt's outcome, once (a run repeating an attempt already recorded writes nothing, and answers
 * recorded: false). The delivery's next attempt, when it has one.
 */
export async function recordAttempt(
  db: Db,
  delivery: DueDelivery,
  result: AttemptResult,
  timings: WebhookTimings,
  now = new Date(),
): Promise<{ recorded: boolean; next: DueDelivery | null }> {
  const at = now.toISOString();
  const attempts = delivery.attempts + 1;
  const wait = result.ok || result.drop ? null : retryDelayMs(attempts, timings);
  const status: NotificationDeliveryStatus = result.ok
    ? "sent"
    : result.drop
      ? "dropped"
      : wait === null
        ? "failed"
        : "pending";
  const notBefore = wait === null ? at : new Date(now.getTime() + wait).toISOString();
  const written = await db
    .updateTable("notification_deliveries")
    .set({
      status,
      attempts,
      last_attempt_at: at,
      not_before: notBefore,
      ...(result.ok ? { sent_at: at } : { last_error: result.error }),
    })
    .where("id", "=", delivery.id)
    .where("status", "=", "pending")
    .where("attempts", "=", delivery.attempts)
    .executeTakeFirst();
  if (Number(written.numUpdatedRows) !== 1) return { recorded: false, next: null };
  await db
    .insertInto("notification_attempts")
    .values({
      id: randomUUID(),
      delivery_id: delivery.id,
      at,
      ok: result.ok ? 1 : 0,
      error: result.ok ? null : result.error,
    })
    .execute();
  return { recorded: true, next: status === "pending" ? { id: delivery.id, attempts, notBefore } : null };
}

/** A recipient's latest deliveries, newest first, each with its attempts (newest first). */
export async function deliveryLog(
  db: Db,
  recipient: { kind: "user" | "channel"; id: string },
  limit = 50,
): Promise<NotificationDeliveryOutput[]> {
  const rows = await db
    .selectFrom("notification_deliveries")
    .selectAll()
    .where("recipient_kind", "=", recipient.kind)
    .where("recipient_id", "=", recipient.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom("notification_attempts")
    .selectAll()
    .where(
      "delivery_id",
      "in",
      rows.map((row) => row.id),
    )
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => {
    const status = isOneOf(NOTIFICATION_DELIVERY_STATUSES, row.status) ? row.status : "pending";
    return {
      id: row.id,
      topic: row.topic,
      title: summaryOf(parseMessages(row.messages)),
      status,
      attempts: Number(row.attempts),
      created_at: row.created_at,
      not_before: status === "held" || status === "pending" ? row.not_before : null,
      sent_at: row.sent_at,
      last_error: row.last_error,
      log: attempts
        .filter((attempt) => attempt.delivery_id === row.id)
        .map((attempt) => ({ at: attempt.at, ok: Number(attempt.ok) === 1, error: attempt.error })),
    };
  });
}
