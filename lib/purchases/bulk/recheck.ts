// Re-checking a job's failed rows: only those that failed for a reason that can pass on a retry (network,
// timeout, 429, 5xx, an open breaker — marked retryable by the check; never "invalid", never a refused key). They
// go back to pending and the job back to queued (the route queues it, and so would the sweep, ./queue.ts); the
// job's counts follow from its rows. The codes count against the same hourly
// allowance as a batch, checked in the same write transaction.
import "server-only";

import { writeTransaction, type Db } from "@/lib/db";

import { allowanceRefusal, type AllowanceDecision, type JobsPerDayRefusal } from "./allowance";
import { isActive, type JobVisibility } from "./jobs";

export type RecheckResult =
  | { ok: true; codes: number }
  | { ok: false; problem: "not_found" | "running" | "nothing_to_recheck" }
  | { ok: false; decision: Extract<AllowanceDecision, { allowed: false }> }
  | { ok: false; tooManyJobs: JobsPerDayRefusal };

export async function recheckFailedRows(
  db: Db,
  jobId: string,
  visibility: JobVisibility,
  { userId, limitPerHour, now = new Date() }: { userId: string; limitPerHour: number; now?: Date },
): Promise<RecheckResult> {
  return writeTransaction(db, async (trx) => {
    let query = trx.selectFrom("bulk_jobs").select(["id", "status"]).where("id", "=", jobId);
    if (visibility.userId !== null) query = query.where("user_id", "=", visibility.userId);
    const job = await query.executeTakeFirst();
    if (!job) return { ok: false, problem: "not_found" };
    // While it runs, a failed row may still be waiting for its last try: re-check once the job has ended.
    if (isActive(job.status)) return { ok: false, problem: "running" };
    const row = await trx
      .selectFrom("bulk_job_codes")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("job_id", "=", jobId)
      .where("status", "=", "failed")
      .where("retryable", "=", 1)
      .executeTakeFirstOrThrow();
    const codes = Number(row.n);
    if (codes === 0) return { ok: false, problem: "nothing_to_recheck" };
    const refusal = await allowanceRefusal(trx, { userId, needed: codes, limitPerHour, now, countJob: false });
    if (refusal) return { ok: false, ...refusal };
    const at = now.toISOString();
    await trx
      .insertInto("bulk_rechecks")
      .values({ id: crypto.randomUUID(), job_id: jobId, user_id: userId, created_at: at, codes })
      .execute();
    await trx
      .updateTable("bulk_job_codes")
      .set({
        status: "pending",
        reason: null,
        last_verdict: null,
        checked_at: null,
        attempts: 0,
        retryable: 0,
        transient_failures: 0,
        not_before: null,
      })
      .where("job_id", "=", jobId)
      .where("status", "=", "failed")
      .where("retryable", "=", 1)
      .execute();
    await trx
      .updateTable("bulk_jobs")
      .set({ status: "queued", finished_at: null, waiting_until: null })
      .where("id", "=", jobId)
      .execute();
    return { ok: true, codes };
  });
}
