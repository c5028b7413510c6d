// Bulk jobs in the store: a job row per batch and a row per distinct code (./batch.ts), so that a job survives the
// tab that started it and the process that runs it (a job of the job system, ./queue.ts and ./lane.ts). Creating a job
// is checked against the allowance (./allowance.ts) in the same transaction; a job is kept 7 days.
import "server-only";

import type { ExpressionBuilder } from "kysely";

import type { User } from "@/lib/auth/users";
import type { PurchaseCodeFormat } from "@/lib/contract/values";
import { writeTransaction, type Database, type Db } from "@/lib/db";

import { allowanceRefusal, type AllowanceDecision, type JobsPerDayRefusal } from "./allowance";
import { codeRows, prepareBatch } from "./batch";

export const BULK_JOB_RETENTION_MS = 7 * 86_400_000;
/** A job in one of these is still to be worked on. */
export const ACTIVE_STATUSES = ["queued", "running", "waiting"] as const;

export function isActive(status: string): boolean {
  return (ACTIVE_STATUSES as readonly string[]).includes(status);
}

export interface BulkUser {
  id: string;
  email: string;
}

/** Who may see a job: its creator, or anyone when `userId` is null (an admin). */
export type JobVisibility = { userId: string | null };

/** A user sees his own jobs; an admin sees everyone's. */
export function jobVisibility(user: Pick<User, "id" | "role">): JobVisibility {
  return { userId: user.role === "admin" ? null : user.id };
}

export type CreateBulkJobResult =
  | { ok: true; id: string }
  | { ok: false; decision: Extract<AllowanceDecision, { allowed: false }> }
  | { ok: false; tooManyJobs: JobsPerDayRefusal };

/**
 * Creates a job for `rawCodes` if the user's hourly allowance has room for the codes that need the upstream.
 * The check and the insert share one write transaction (serialised per user), so two batches sent at once
 * cannot both squeeze in.
 */
export async function createBulkJob(
  db: Db,
  hashKey: string,
  {
    user,
    rawCodes,
    limitPerHour,
    format = "auto",
    now = new Date(),
  }: { user: BulkUser; rawCodes: readonly string[]; limitPerHour: number; format?: PurchaseCodeFormat; now?: Date },
): Promise<CreateBulkJobResult> {
  const { codes, duplicates } = prepareBatch(rawCodes, format);
  const needed = codes.length;
  const id = crypto.randomUUID();
  const at = now.toISOString();
  const rows = codeRows(id, codes, hashKey, at);
  return writeTransaction(db, async (trx) => {
    const refusal = await allowanceRefusal(trx, { userId: user.id, needed, limitPerHour, now });
    if (refusal) return { ok: false, ...refusal };
    const allRefused = codes.every((code) => code.refused);
    await trx
      .insertInto("bulk_jobs")
      .values({
        id,
        user_id: user.id,
        user_email: user.email,
        // A batch the normaliser refused whole has nothing to send: it is done at once.
        status: allRefused ? "done" : "queued",
        total: codes.length,
        duplicates,
        created_at: at,
        started_at: allRefused ? at : null,
        finished_at: allRefused ? at : null,
        expires_at: new Date(now.getTime() + BULK_JOB_RETENTION_MS).toISOString(),
        waiting_until: null,
      })
      .execute();
    // In chunks: SQLite and PostgreSQL cap the parameters of one statement.
    for (let start = 0; start < rows.length; start += 200) {
      await trx
        .insertInto("bulk_job_codes")
        .values(rows.slice(start, start + 200))
        .execute();
    }
    return { ok: true, id };
  });
}

/**
 * The longest one check can be under way: the longest UPSTREAM_TIMEOUT_MS allowed (5 minutes), and a margin. A
 * code marked under way for longer was left by a process that died; a cancelled job no longer waits for it.
 */
export const CHECK_UNDER_WAY_MAX_MS = 330_000;

/**
 * Cancels a job: the codes not yet checked end as cancelled. A check already under way still finishes and writes
 * its result (it happened upstream), so its code stays pending until then and the job is "settling". A finished
 * job stays as it is. False: no such job.
 */
export async function cancelBulkJob(db: Db, id: string, visibility: JobVisibility, now = new Date()): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    let query = trx.selectFrom("bulk_jobs").select(["id", "status"]).where("id", "=", id);
    if (visibility.userId !== null) query = query.where("user_id", "=", visibility.userId);
    const job = await query.executeTakeFirst();
    if (!job) return false;
    if (!isActive(job.status)) return true;
    const at = now.toISOString();
    await trx
      .updateTable("bulk_jobs")
      .set({ status: "cancelled", finished_at: at, waiting_until: null })
      .where("id", "=", id)
      .execute();
    await trx
      .updateTable("bulk_job_codes")
      .set({ status: "cancelled", reason: NOT_CHECKED, checked_at: at })
      .where("job_id", "=", id)
      .where("status", "=", "pending")
      .where((eb) => notUnderWay(eb, now))
      .execute();
    return true;
  });
}

const NOT_CHECKED = "Not checked: the job was cancelled.";

function notUnderWay(eb: ExpressionBuilder<Database, "bulk_job_codes">, now: Date) {
  const since = new Date(now.getTime() - CHECK_UNDER_WAY_MAX_MS).toISOString();
  return eb.or([eb("check_started_at", "is", null), eb("check_started_at", "<", since)]);
}

/**
 * Ends the codes of cancelled jobs whose check was left under way by a process that died (past
 * CHECK_UNDER_WAY_MAX_MS), so that no cancelled job keeps settling. Returns how many.
 */
export async function settleCancelledJobs(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .updateTable("bulk_job_codes")
    .set({ status: "cancelled", reason: NOT_CHECKED, checked_at: now.toISOString(), check_started_at: null })
    .where("status", "=", "pending")
    .where("job_id", "in", (eb) => eb.selectFrom("bulk_jobs").select("id").where("status", "=", "cancelled"))
    .where((eb) => notUnderWay(eb, now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes jobs (and their codes) past their 7 days. Returns how many. */
export async function purgeExpiredBulkJobs(db: Db, now = new Date()): Promise<number> {
  const expired = await db.selectFrom("bulk_jobs").select("id").where("expires_at", "<=", now.toISOString()).execute();
  if (expired.length === 0) return 0;
  const ids = expired.map((row) => row.id);
  await db.deleteFrom("bulk_job_codes").where("job_id", "in", ids).execute();
  await db.deleteFrom("bulk_rechecks").where("job_id", "in", ids).execute();
  await db.deleteFrom("bulk_jobs").where("id", "in", ids).execute();
  return ids.length;
}
