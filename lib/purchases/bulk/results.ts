// The result of each code of a job: written once (pending → valid | invalid | revoked | failed), so `done` never goes back;
// tries that will be repeated are counted. A check marks its code as under way before it asks the upstream, so a
// cancel leaves that code pending until its result lands (./jobs.ts), and the job's counts settle once. A result
// and its row in the purchase history are written together (recordBulkCheck), so each check is in the history once.
import "server-only";

import type { LastVerdict, PreviousPurchase } from "@/lib/contract/purchase-lifecycle";
import type { Purchase } from "@/lib/contract/purchases";
import { writeTransaction, type Db } from "@/lib/db";
import { redactSecrets } from "@/lib/log";

import { recordPurchaseCheck } from "../history";
import { ACTIVE_STATUSES, type BulkUser } from "./jobs";

export async function pendingCodes(
  db: Db,
  jobId: string,
): Promise<Array<{ idx: number; sealed: string; attempts: number }>> {
  const rows = await db
    .selectFrom("bulk_job_codes")
    .select(["idx", "code_sealed", "attempts"])
    .where("job_id", "=", jobId)
    .where("status", "=", "pending")
    .orderBy("idx", "asc")
    .execute();
  return rows.map((row) => ({ idx: row.idx, sealed: row.code_sealed, attempts: row.attempts }));
}

export type CodeOutcome =
  | { status: "valid"; purchase: Purchase }
  | { status: "invalid"; reason: string }
  /** Seen valid before, refused now (../lifecycle.ts settleAnswer): reason says what was bought then. */
  | { status: "revoked"; reason: string; previous: PreviousPurchase }
  /**
   * retryable: the failure may pass when tried again (network, timeout, 429, 5xx); a re-check takes only these.
   * lastVerdict: the item service did not answer and the code was checked before: reason is that verdict in words,
   * `failure` why there was no answer (the history row keeps it, as the single check's does).
   */
  | { status: "failed"; reason: string; retryable?: boolean; lastVerdict?: LastVerdict | null; failure?: string };

/**
 * Marks a pending code of an active job as being checked now. False: the code has a result already, or its job
 * was cancelled (or deleted) — then the upstream must not be asked.
 */
export async function beginCheck(db: Db, jobId: string, idx: number, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("bulk_job_codes")
    .set({ check_started_at: now.toISOString() })
    .where("job_id", "=", jobId)
    .where("idx", "=", idx)
    .where("status", "=", "pending")
    .where("job_id", "in", (eb) =>
      eb
        .selectFrom("bulk_jobs")
        .select("id")
        .where("id", "=", jobId)
        .where("status", "in", [...ACTIVE_STATUSES]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Stores one code's result. Only a pending code changes (a cancel leaves the codes under way pending), so a result
 * is written once and `done` never goes back.
 */
export async function recordBulkResult(
  db: Db,
  jobId: string,
  idx: number,
  outcome: CodeOutcome,
  now = new Date(),
): Promise<boolean> {
  const purchase = outcome.status === "valid" ? outcome.purchase : null;
  // A revoked code names what was bought then, in the same fields a valid one fills.
  const previous = outcome.status === "revoked" ? outcome.previous : null;
  const last = outcome.status === "failed" ? (outcome.lastVerdict ?? null) : null;
  const result = await db
    .updateTable("bulk_job_codes")
    .set((eb) => ({
      status: outcome.status,
      reason: outcome.status === "valid" ? null : redactSecrets(outcome.reason),
      item_id: purchase?.item.id ?? previous?.item.id ?? null,
      item_name: purchase?.item.name ?? previous?.item.name ?? null,
      license_type: purchase?.license_type ?? previous?.license_type ?? null,
      supported_until: purchase?.supported_until ?? previous?.supported_until ?? null,
      previously_valid: previous ? JSON.stringify(previous) : null,
      last_verdict: last ? JSON.stringify(last) : null,
      checked_at: now.toISOString(),
      attempts: eb("attempts", "+", 1),
      retryable: outcome.status === "failed" && outcome.retryable === true ? 1 : 0,
      check_started_at: null,
    }))
    .where("job_id", "=", jobId)
    .where("idx", "=", idx)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface BulkCheck {
  jobId: string;
  idx: number;
  /** Who made the job (the history row is his check). */
  user: BulkUser;
  /** The cleaned code; null when it can no longer be opened (then there was no check to keep in the history). */
  code: string | null;
  outcome: CodeOutcome;
}

/**
 * Stores a checked code's result and its row in the purchase history in one transaction: both or neither. Written
 * apart, a process killed (or a store failing) between the two left a result without its history row, and that
 * code, no longer pending, was never checked again. Now the code stays pending and is checked again, by this
 * process or by the one that takes the job over. False (nothing written): the code has a result already.
 */
export async function recordBulkCheck(
  db: Db,
  hashKey: string,
  { jobId, idx, user, code, outcome }: BulkCheck,
  now = new Date(),
): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    if (!(await recordBulkResult(trx, jobId, idx, outcome, now))) return false;
    if (code !== null) {
      await recordPurchaseCheck(trx, hashKey, {
        at: now,
        user,
        code,
        outcome: outcome.status,
        reason:
          outcome.status === "valid"
            ? null
            : outcome.status === "failed"
              ? (outcome.failure ?? outcome.reason)
              : outcome.reason,
        purchase: outcome.status === "valid" ? outcome.purchase : null,
        previous: outcome.status === "revoked" ? outcome.previous : null,
        source: "bulk",
        bulkJobId: jobId,
      });
    }
    return true;
  });
}

/**
 * Counts a try that will be repeated (a rate limit, a transient failure), so a restart knows how many were spent.
 * The check is no longer under way: a cancel before the next try ends the code.
 */
export async function countAttempt(db: Db, jobId: string, idx: number): Promise<void> {
  await db
    .updateTable("bulk_job_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1), check_started_at: null }))
    .where("job_id", "=", jobId)
    .where("idx", "=", idx)
    .execute();
}
