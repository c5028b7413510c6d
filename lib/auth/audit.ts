// The audit log: one row per state change and per purchase validation. Append-only from the app's side.
// Purchase codes are kept as a keyed hash plus their last 4 characters; passwords and keys never.
import "server-only";

import { createHmac } from "node:crypto";

import { z } from "zod";

import type { Db } from "@/lib/db";
import type { AuditRow } from "@/lib/db/schema";

import { AUDIT_ACTIONS, AUDIT_OUTCOMES, type AuditAction, type AuditOutcome } from "./audit-actions";
import { normalizeEmail } from "./fields";

export { AUDIT_ACTIONS, AUDIT_OUTCOMES, type AuditAction, type AuditOutcome };

/** What an action was about. A purchase code appears only as the output of purchaseCodeTarget(). */
export type AuditTarget =
  | { type: "report"; id: string }
  | { type: "project"; name: string }
  | { type: "user"; id: string }
  | PurchaseCodeTarget;

export interface PurchaseCodeTarget {
  type: "purchase_code";
  /** HMAC-SHA256 (hex) of the code under PURCHASE_CODE_HASH_KEY: the same code always gives the same hash. */
  hash: string;
  last4: string;
}

export function hashPurchaseCode(code: string, key: string): string {
  return createHmac("sha256", key).update(code.trim()).digest("hex");
}

export function purchaseCodeTarget(code: string, key: string): PurchaseCodeTarget {
  const trimmed = code.trim();
  return { type: "purchase_code", hash: hashPurchaseCode(trimmed, key), last4: trimmed.slice(-4) };
}

// detail is for small facts (a reason, a changed field's name), never credentials: keys that look like one
// are refused so a careless caller fails in tests rather than leaking into the log.
const SECRET_LOOKING_KEY = /pass(word)?|secret|token|api[_-]?key|^key$|cookie|authorization|^code$|purchase_?code/i;

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
      z.strictObject({ type: z.literal("report"), id: z.string().min(1) }),
      z.strictObject({ type: z.literal("project"), name: z.string().min(1) }),
      z.strictObject({ type: z.literal("user"), id: z.string().min(1) }),
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
  const detail = target?.type === "purchase_code" ? { ...e.detail, last4: target.last4 } : e.detail;
  await db
    .insertInto("audit_log")
    .values({
      at: now.toISOString(),
      user_id: e.userId,
      user_email: e.userEmail === null ? null : normalizeEmail(e.userEmail),
      action: e.action,
      target_type: target?.type ?? null,
      target_id: targetId,
      outcome: e.outcome,
      request_id: e.requestId,
      detail: detail && Object.keys(detail).length > 0 ? JSON.stringify(detail) : null,
    })
    .execute();
}

export interface AuditRecord {
  id: number;
  at: string;
  userId: string | null;
  userEmail: string | null;
  action: AuditAction;
  /** type + id: a report id, a project name, a user id, or a purchase code's hash (its last4 is in detail). */
  target: { type: AuditTarget["type"]; id: string } | null;
  outcome: AuditOutcome;
  requestId: string | null;
  detail: Record<string, unknown> | null;
}

function toRecord(row: AuditRow): AuditRecord {
  return {
    id: Number(row.id),
    at: row.at,
    userId: row.user_id,
    userEmail: row.user_email,
    action: row.action as AuditAction,
    target:
      row.target_type === null || row.target_id === null
        ? null
        : { type: row.target_type as AuditTarget["type"], id: row.target_id },
    outcome: row.outcome as AuditOutcome,
    requestId: row.request_id,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
  };
}

export const AUDIT_MAX_PER_PAGE = 100;

// Query-string friendly: GET /api/admin/audit can pass Object.fromEntries(searchParams) straight in.
// A bare date means the whole day: `from` its first millisecond, `to` its last (both UTC).
const DAY_MS = 86_400_000;
const instant = (name: string, bareDate: "start" | "end") =>
  z.union(
    [
      z.date(),
      z.iso.datetime({ offset: true }).transform((s) => new Date(s)),
      z.iso.date().transform((s) => new Date(Date.parse(s) + (bareDate === "end" ? DAY_MS - 1 : 0))),
    ],
    { error: `${name} must be a date or date-time, such as 2025-03-01 or 2025-03-01T12:00:00Z` },
  );

export const auditQuerySchema = z
  .strictObject({
    /** A user id or an email (case-insensitive). */
    user: z.string().trim().min(1, "user must not be empty").optional(),
    action: z.enum(AUDIT_ACTIONS, { error: `action must be one of: ${AUDIT_ACTIONS.join(", ")}` }).optional(),
    /** Inclusive. */
    from: instant("from", "start").optional(),
    /** Inclusive. */
    to: instant("to", "end").optional(),
    page: z.coerce
      .number({ error: "page must be a number" })
      .int("page must be a whole number")
      .min(1, "page starts at 1")
      .default(1),
    perPage: z.coerce
      .number({ error: "perPage must be a number" })
      .int("perPage must be a whole number")
      .min(1, "perPage must be at least 1")
      .max(AUDIT_MAX_PER_PAGE, `perPage must be at most ${AUDIT_MAX_PER_PAGE}`)
      .default(50),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["from"] });
export type AuditQuery = z.input<typeof auditQuerySchema>;

/** Newest first. `total` counts every row matching the filters, for pagination. */
export async function listAudit(db: Db, query: AuditQuery): Promise<{ rows: AuditRecord[]; total: number }> {
  const q = auditQuerySchema.parse(query);
  let base = db.selectFrom("audit_log");
  if (q.user !== undefined) {
    const user = q.user;
    base = base.where((eb) => eb.or([eb("user_id", "=", user), eb("user_email", "=", normalizeEmail(user))]));
  }
  if (q.action !== undefined) base = base.where("action", "=", q.action);
  if (q.from !== undefined) base = base.where("at", ">=", q.from.toISOString());
  if (q.to !== undefined) base = base.where("at", "<=", q.to.toISOString());

  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy("at", "desc")
      .orderBy("id", "desc")
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage)
      .execute(),
    base.select((eb) => eb.fn.countAll().as("total")).executeTakeFirstOrThrow(),
  ]);
  // PostgreSQL returns count(*) as a BIGINT string.
  return { rows: rows.map(toRecord), total: Number(count.total) };
}
