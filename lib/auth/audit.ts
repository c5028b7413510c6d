// The audit log: one row per state change and per purchase validation. Append-only from the app's side, except
// that a denial repeated within DENIAL_COLLAPSE_MS is counted on the row of the first (so 2,000 throttled sign-ins
// for one email are one row, "2,000 times", not 2,000 rows). Purchase codes are kept as a keyed hash, plus their
// last 4 characters only when the code is long enough that 4 of them say nothing; passwords and keys never.
import "server-only";

import { createHmac } from "node:crypto";

import { sql, type ExpressionBuilder } from "kysely";
import { z } from "zod";

import { normalizeEmail } from "@/lib/contract/accounts";
import { purchaseCodeLast4 } from "@/lib/contract/purchase-code";
import { timeBound } from "@/lib/contract/common";
import {
  AUDIT_ACTIONS,
  AUDIT_OUTCOMES,
  DEFAULT_PER_PAGE,
  type AuditAction,
  type AuditOutcome,
} from "@/lib/contract/values";
import { writeTransaction, type Db } from "@/lib/db";
import type { AuditRow, Database } from "@/lib/db/schema";

/**
 * What an action was about. `label` is the target's name when the row is written (a report's URL, a user's
 * email), so the row still reads by name after the target is gone. A purchase code appears only as the output
 * of purchaseCodeTarget().
 */
export type AuditTarget = NamedAuditTarget | PurchaseCodeTarget;

/** Every target but a purchase code: kept as it is given. */
export type NamedAuditTarget =
  | { type: "report"; id: string; label?: string | null }
  | { type: "project"; name: string }
  | { type: "user"; id: string; label?: string | null }
  | { type: "token"; id: string; label?: string | null }
  | { type: "webhook"; id: string; label?: string | null }
  /** An upstream area ("reports" | "items"): its key changed or was rejected. */
  | { type: "upstream_area"; id: string }
  /** A notification channel (issue 35), labelled with its name (never its webhook URL). */
  | { type: "notification_channel"; id: string; label?: string | null };

export interface PurchaseCodeTarget {
  type: "purchase_code";
  /** HMAC-SHA256 (hex) of the code under PURCHASE_CODE_HASH_KEY: the same code always gives the same hash. */
  hash: string;
  /** Its last 4 characters, or "" when the code is too short for 4 of them to say nothing (purchaseCodeLast4). */
  last4: string;
}

export function hashPurchaseCode(code: string, key: string): string {
  return createHmac("sha256", key).update(code.trim()).digest("hex");
}

export function purchaseCodeTarget(code: string, key: string): PurchaseCodeTarget {
  const trimmed = code.trim();
  return { type: "purchase_code", hash: hashPurchaseCode(trimmed, key), last4: purchaseCodeLast4(trimmed) };
}

/** Repeated denials (same who, action, target and detail) within this time are counted on one row. */
export const DENIAL_COLLAPSE_MS = 15 * 60_000;

// detail is for small facts (a reason, a changed field's name), never credentials: keys that look like one
// are refused so a careless caller fails in tests rather than leaking into the log. "passkey" names a kind of
// factor (a sign-in with one, which one was added), not a credential.
const SECRET_LOOKING_KEY =
  /pass(?!key)(word)?|secret|token|api[_-]?key|^key$|cookie|authorization|^code$|purchase_?code/i;

const detailSchema = z
  .record(z.string(), z.union([z.string().max(500), z.number(), z.boolean(), z.null(), z.array(z.string().max(100))]))
  .refine((d) => !Object.keys(d).some((k) => SECRET_LOOKING_KEY.test(k)), {
    message: "audit detail must not carry credentials (a key looks like a password, secret, token or code)",
  });

export const auditEntrySchema = z.strictObject({
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  target: z
    .discriminatedUnion("type", [
      z.strictObject({
        type: z.literal("report"),
        id: z.string().min(1),
        label: z.string().max(2048).nullable().optional(),
      }),
      z.strictObject({ type: z.literal("project"), name: z.string().min(1) }),
      z.strictObject({
        type: z.literal("user"),
        id: z.string().min(1),
        label: z.string().max(320).nullable().optional(),
      }),
      z.strictObject({
        type: z.literal("token"),
        id: z.string().min(1),
        label: z.string().max(100).nullable().optional(),
      }),
      z.strictObject({
        type: z.literal("webhook"),
        id: z.string().min(1),
        label: z.string().max(2048).nullable().optional(),
      }),
      z.strictObject({ type: z.literal("upstream_area"), id: z.string().min(1).max(20) }),
      z.strictObject({
        type: z.literal("notification_channel"),
        id: z.string().min(1),
        label: z.string().max(100).nullable().optional(),
      }),
      z.strictObject({
        type: z.literal("purchase_code"),
        hash: z.string().regex(/^[0-9a-f]{64}$/, "purchase code target must hold an HMAC-SHA256 hex digest"),
        last4: z.string().max(4),
      }),
    ])
    .nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  requestId: z.string().max(200).nullable(),
  detail: detailSchema.optional(),
});
export type AuditEntry = z.input<typeof auditEntrySchema>;

export async function recordAudit(db: Db, entry: AuditEntry, { now = new Date() }: { now?: Date } = {}): Promise<void> {
  const e = auditEntrySchema.parse(entry);
  const target = e.target;
  const targetId =
    target === null
      ? null
      : target.type === "project"
        ? target.name
        : target.type === "purchase_code"
          ? target.hash
          : target.id;
  const detailObject =
    target?.type === "purchase_code" && target.last4 !== "" ? { ...e.detail, last4: target.last4 } : e.detail;
  const row = {
    at: now.toISOString(),
    user_id: e.userId,
    user_email: e.userEmail === null ? null : normalizeEmail(e.userEmail),
    action: e.action,
    target_type: target?.type ?? null,
    target_id: targetId,
    target_label: target && "label" in target ? (target.label ?? null) : null,
    outcome: e.outcome,
    request_id: e.requestId,
    detail: detailObject && Object.keys(detailObject).length > 0 ? JSON.stringify(detailObject) : null,
  };
  if (e.outcome !== "denied") {
    await db.insertInto("audit_log").values(row).execute();
    return;
  }
  // A denial like one of the last minutes (a throttled sign-in retried by a script, a rate-limited check) is
  // counted on that row: a flood of refusals must not flood the log, and the count says how big it was.
  await writeTransaction(db, async (trx) => {
    const since = new Date(now.getTime() - DENIAL_COLLAPSE_MS).toISOString();
    const same = await trx
      .selectFrom("audit_log")
      .select("id")
      .where("action", "=", row.action)
      .where("outcome", "=", "denied")
      .where((eb) =>
        eb.and([
          sameAs(eb, "user_id", row.user_id),
          sameAs(eb, "user_email", row.user_email),
          sameAs(eb, "target_type", row.target_type),
          sameAs(eb, "target_id", row.target_id),
          sameAs(eb, "detail", row.detail),
        ]),
      )
      .where((eb) => eb(eb.fn.coalesce("last_at", "at"), ">", since))
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (same) {
      await trx
        .updateTable("audit_log")
        .set({ repeat_count: sql<number>`repeat_count + 1`, last_at: row.at })
        .where("id", "=", same.id)
        .execute();
    } else {
      await trx.insertInto("audit_log").values(row).execute();
    }
  });
}

type AuditColumn = "user_id" | "user_email" | "target_type" | "target_id" | "detail";
function sameAs(eb: ExpressionBuilder<Database, "audit_log">, column: AuditColumn, value: string | null) {
  return value === null ? eb(column, "is", null) : eb(column, "=", value);
}

export interface AuditRecord {
  id: number;
  at: string;
  userId: string | null;
  userEmail: string | null;
  /** The acting user's name as it is now; null when he is unknown or gone. */
  userName: string | null;
  action: AuditAction;
  /**
   * type + id: a report id, a project name, a user id, or a purchase code's hash (its last4 is in detail).
   * `label`: the name it had then (a report's URL, a user's email); `name`: a user target's name now.
   */
  target: { type: AuditTarget["type"]; id: string; label: string | null; name: string | null } | null;
  outcome: AuditOutcome;
  requestId: string | null;
  detail: Record<string, unknown> | null;
  /** How many times it happened (repeated denials are counted on one row), the last time at `lastAt`. */
  count: number;
  lastAt: string | null;
}

type AuditRowWithNames = AuditRow & { actor_name: string | null; subject_name: string | null };

function toRecord(row: AuditRowWithNames): AuditRecord {
  return {
    id: Number(row.id),
    at: row.at,
    userId: row.user_id,
    userEmail: row.user_email,
    userName: row.actor_name,
    action: row.action as AuditAction,
    target:
      row.target_type === null || row.target_id === null
        ? null
        : {
            type: row.target_type as AuditTarget["type"],
            id: row.target_id,
            label: row.target_label,
            name: row.target_type === "user" ? row.subject_name : null,
          },
    outcome: row.outcome as AuditOutcome,
    requestId: row.request_id,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
    count: Number(row.repeat_count),
    lastAt: row.last_at,
  };
}

/**
 * Which rows to list, as the contract's query says it (lib/contract/audit.ts validates it at the API; the audit
 * page reads its URL as leniently). `from` and `to` are inclusive; a bare date is the whole day in `time_zone`, UTC
 * when none is given (timeBound).
 */
export interface AuditFilter {
  /** A user id or an email (in any letter case). */
  user?: string;
  action?: AuditAction;
  from?: string | Date;
  to?: string | Date;
  /** The IANA zone a bare date of `from` and `to` is a day of. */
  time_zone?: string;
  /** From 1 (the default). */
  page?: number;
  /** DEFAULT_PER_PAGE.audit unless given. */
  perPage?: number;
}

const boundOf = (value: string | Date, side: "start" | "end", zone?: string) =>
  (typeof value === "string" ? timeBound(value, side, zone) : value).toISOString();

/** The rows the filters select (user, action, from, to), not yet ordered. */
function filtered(db: Db, query: Omit<AuditFilter, "page" | "perPage">) {
  let base = db.selectFrom("audit_log");
  const user = query.user?.trim();
  if (user)
    base = base.where((eb) =>
      eb.or([eb("audit_log.user_id", "=", user), eb("audit_log.user_email", "=", normalizeEmail(user))]),
    );
  if (query.action !== undefined) base = base.where("audit_log.action", "=", query.action);
  if (query.from !== undefined) base = base.where("audit_log.at", ">=", boundOf(query.from, "start", query.time_zone));
  if (query.to !== undefined) base = base.where("audit_log.at", "<=", boundOf(query.to, "end", query.time_zone));
  return base;
}

type FilteredAudit = ReturnType<typeof filtered>;

/** With the people's names as they are now: who acted, and the user a row is about. */
function withNames(base: FilteredAudit) {
  return base
    .leftJoin("users as actor", "actor.id", "audit_log.user_id")
    .leftJoin("users as subject", (join) =>
      join.onRef("subject.id", "=", "audit_log.target_id").on("audit_log.target_type", "=", "user"),
    )
    .selectAll("audit_log")
    .select(["actor.name as actor_name", "subject.name as subject_name"]);
}

/** Newest first. `total` counts every row matching the filters, for pagination. */
export async function listAudit(db: Db, query: AuditFilter): Promise<{ rows: AuditRecord[]; total: number }> {
  const page = query.page ?? 1;
  const perPage = query.perPage ?? DEFAULT_PER_PAGE.audit;
  const base = filtered(db, query);
  const [rows, count] = await Promise.all([
    withNames(base)
      .orderBy("audit_log.at", "desc")
      .orderBy("audit_log.id", "desc")
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    base.select((eb) => eb.fn.countAll().as("total")).executeTakeFirstOrThrow(),
  ]);
  // PostgreSQL returns count(*) as a BIGINT string.
  return { rows: rows.map((row) => toRecord(row as AuditRowWithNames)), total: Number(count.total) };
}

/**
 * The rows the filters select in the order they were written (by id), after the row `afterId` (0: from the
 * first), at most `limit`: one page of an export, read by keyset so that rows written meanwhile never shift it.
 */
export async function auditRowsAfter(
  db: Db,
  query: Omit<AuditFilter, "page" | "perPage">,
  afterId: number,
  limit: number,
): Promise<AuditRecord[]> {
  const rows = await withNames(filtered(db, query).where("audit_log.id", ">", afterId))
    .orderBy("audit_log.id", "asc")
    .limit(limit)
    .execute();
  return rows.map((row) => toRecord(row as AuditRowWithNames));
}
