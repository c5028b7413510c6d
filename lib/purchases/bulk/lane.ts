// A bulk job as one job of the job system (lib/jobs), its "lane": each run checks a batch of at most CONCURRENCY of
// its pending codes at once, writes their results, and answers `continue` while codes remain, so that it runs
// again behind the other bulk jobs (the kind runs one lane at a time: at most CONCURRENCY upstream calls at once,
// across the cluster on BullMQ, in each process on the store, and the jobs served in turn, batch by batch).
// - A 429 pauses the kind on every instance for its Retry-After (capped at MAX_WAIT_MS); the job shows as waiting
//   until then. A code that meets more than MAX_RATE_LIMIT_WAITS of them fails, so a job always ends.
// - A transient failure (timeout, unreachable, 5xx, an open circuit breaker) leaves the code pending, its attempt
//   counted and not before BACKOFF_MS; after MAX_TRANSIENT_ATTEMPTS the code fails with the reason. A lane whose
//   pending codes are all backed off runs again when the first is due.
// - The store is the record: each result is written once with its history row (./results.ts), a code found no
//   longer pending is skipped, and the run that finishes the job tells of it once (bulk_job.finished).
// - Each answer settles through ../lifecycle.ts like the single check's: a code seen valid before and refused now is
//   revoked (what was bought then kept with it); a code whose last try failed because the item service did not
//   answer keeps its last verdict, if it has one, and stays failed and re-checkable: the job's own re-check of its
//   failed rows asks again (not the sweep's tick, whose answer the job would never show: one call, not two). The settling (known_purchases, the one
//   purchase.revoked event) happens before the result's transaction, as the single check settles before it records:
//   it is true whatever becomes of the write, and repeated when the code is checked again it changes nothing and
//   sends no second event.
import "server-only";

import { sql } from "kysely";
import { z } from "zod";

import { retryAfterMs } from "@/lib/contract/retry-after";
import type { PurchaseCodeFormat } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { emitEvent } from "@/lib/events";
import { defineJob, type JobDefinition, type JobOutcome } from "@/lib/jobs";
import { describeError, logEvent } from "@/lib/log";
import { isCircuitOpenError, isUpstreamError, type ItemsClient } from "@/lib/upstream";

import { askItemService, type ItemServiceAnswer } from "../check";
import {
  answersFromLastVerdict,
  lastVerdict,
  lastVerdictSentence,
  lifecycleSettings,
  settleAnswer,
  type LifecycleDeps,
} from "../lifecycle";
import { purchaseCodeForms } from "../normalise";
import { codeSealer, UNREADABLE_CODE_REASON } from "./code-seal";
import { ACTIVE_STATUSES, isActive, type BulkUser } from "./jobs";
import { beginCheck, countAttempt, recordBulkCheck, type BulkCheck, type CodeOutcome } from "./results";
import { findBulkJobSummary } from "./summaries";
import { failureReason, MAX_RATE_LIMIT_WAITS, NOT_CONFIGURED, settledBy, SLOWED_DOWN_TOO_OFTEN } from "./verdicts";

/** Upstream calls of one lane's run, at once; the kind runs one lane at a time. */
export const CONCURRENCY = 3;
export const MAX_TRANSIENT_ATTEMPTS = 3;
/** When a 429 carries no usable Retry-After. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 5_000;
/** A Retry-After beyond this is read as this: the job shows when it resumes, and a restart starts over anyway. */
export const MAX_WAIT_MS = 3_600_000;
/** The wait before the second and third tries of a code after a transient failure. */
export const BACKOFF_MS = [1_000, 3_000];
/** A code whose result could not be written (the store failing) is tried again after this. */
const UNWRITTEN_RETRY_MS = 1_000;

const KIND = "bulk-check";
const lanePayload = z.object({ job: z.string() });

/** The lane of a bulk job: its id in the job system. */
export const laneId = (jobId: string): string => `bulk-${jobId}`;

export interface BulkLaneDeps {
  db: () => Promise<Db>;
  hashKey: () => string | Promise<string>;
  items: () => Promise<ItemsClient | null>;
  /** PURCHASE_CODE_FORMAT: the forms a code's history is found under (default auto). */
  format?: () => PurchaseCodeFormat | Promise<PurchaseCodeFormat>;
}

interface PendingCode {
  idx: number;
  sealed: string;
  attempts: number;
  transientFailures: number;
}

/** What came of one code of a batch. */
type CodeStep = { kind: "settled" } | { kind: "rate_limited"; ms: number } | { kind: "backed_off"; pauseMs?: number };

/** The kind of bulk checks: a job per bulk job, whose handler checks it a batch at a time. */
export function bulkCheckJob(deps: BulkLaneDeps): JobDefinition<{ job: string }> {
  return defineJob({
    kind: KIND,
    payload: lanePayload,
    concurrency: 1,
    handle: async ({ job }) => runLane(deps, job),
  });
}

/** One run of a lane: the next batch of the job's due codes. */
async function runLane(deps: BulkLaneDeps, jobId: string): Promise<JobOutcome> {
  const db = await deps.db();
  const job = await db
    .selectFrom("bulk_jobs")
    .select(["status", "user_id", "user_email"])
    .where("id", "=", jobId)
    .executeTakeFirst();
  // Deleted, cancelled or finished: nothing more (a cancel's codes under way were written by their own check).
  if (!job || !isActive(job.status)) return { kind: "done" };
  if (job.status !== "running") await markRunning(db, jobId);
  const now = new Date().toISOString();
  const batch = await db
    .selectFrom("bulk_job_codes")
    .select(["idx", "code_sealed", "attempts", "transient_failures"])
    .where("job_id", "=", jobId)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("not_before", "is", null), eb("not_before", "<=", now)]))
    .orderBy("idx")
    .limit(CONCURRENCY)
    .execute();
  const user = { id: job.user_id, email: job.user_email };
  // Each check of the batch ends before the run does (a run that threw while one still ran could be repeated).
  const settled = await Promise.allSettled(
    batch.map((row) =>
      checkCode(deps, db, jobId, user, {
        idx: row.idx,
        sealed: row.code_sealed,
        attempts: row.attempts,
        transientFailures: row.transient_failures,
      }),
    ),
  );
  const steps = settled.map((result) => {
    if (result.status === "rejected") throw result.reason;
    return result.value;
  });
  const waits = steps.flatMap((step) => (step.kind === "rate_limited" ? [step.ms] : []));
  if (waits.length > 0) return pauseAll(db, jobId, Math.max(...waits));
  const breaker = steps.flatMap((step) => (step.kind === "backed_off" && step.pauseMs ? [step.pauseMs] : []));
  if (breaker.length > 0) return { kind: "pause_all", ms: Math.min(Math.max(...breaker), MAX_WAIT_MS) };
  return whatNext(db, jobId);
}

/** Queued, or waiting out a 429 that has passed: running from now. */
async function markRunning(db: Db, jobId: string): Promise<void> {
  await db
    .updateTable("bulk_jobs")
    .set((eb) => ({
      status: "running",
      waiting_until: null,
      started_at: eb.fn.coalesce("started_at", eb.val(new Date().toISOString())),
    }))
    .where("id", "=", jobId)
    .where("status", "in", ["queued", "waiting"])
    .execute();
}

/** The item service asked to slow down: every lane waits `ms`, and this job shows it is waiting until then. */
async function pauseAll(db: Db, jobId: string, ms: number): Promise<JobOutcome> {
  const wait = Math.min(Math.max(ms, 0), MAX_WAIT_MS);
  logEvent("warn", "bulk_paused", { job_id: jobId, wait_ms: wait, reason: "upstream_rate_limited" });
  await db
    .updateTable("bulk_jobs")
    .set({ status: "waiting", waiting_until: new Date(Date.now() + wait).toISOString() })
    .where("id", "=", jobId)
    .where("status", "in", ["running", "queued"])
    .execute();
  return { kind: "pause_all", ms: wait };
}

/** After a batch: run again now while codes are due, when the first backed-off one is due, or finish the job. */
async function whatNext(db: Db, jobId: string): Promise<JobOutcome> {
  const now = new Date().toISOString();
  const left = await db
    .selectFrom("bulk_job_codes")
    .select((eb) => [
      sql<number>`count(*)`.as("pending"),
      sql<number>`sum(case when not_before is null or not_before <= ${now} then 1 else 0 end)`.as("due"),
      eb.fn.min("not_before").as("first"),
    ])
    .where("job_id", "=", jobId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  if (Number(left?.pending ?? 0) === 0) {
    await finishJob(db, jobId);
    return { kind: "done" };
  }
  if (Number(left?.due ?? 0) > 0 || !left?.first) return { kind: "continue" };
  return { kind: "retry", afterMs: Math.max(0, Date.parse(left.first) - Date.now()) };
}

/** Ends a job whose codes all have a result; the run whose update wins tells of it, once. */
async function finishJob(db: Db, jobId: string): Promise<void> {
  const result = await db
    .updateTable("bulk_jobs")
    .set({ status: "done", finished_at: new Date().toISOString(), waiting_until: null })
    .where("id", "=", jobId)
    .where("status", "in", [...ACTIVE_STATUSES])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return;
  logEvent("info", "bulk_job_finished", { job_id: jobId });
  await emitEvent({
    type: "bulk_job.finished",
    data: { job: (await findBulkJobSummary(db, jobId, { userId: null })) ?? { id: jobId } },
  });
}

/** One code: checked and its result written once; a code no longer pending (a result, a cancel) is skipped. */
async function checkCode(
  deps: BulkLaneDeps,
  db: Db,
  jobId: string,
  user: BulkUser,
  pending: PendingCode,
): Promise<CodeStep> {
  const { idx } = pending;
  // Under way from here: a cancel now lets this check write its result rather than mark the code cancelled.
  if (!(await beginCheck(db, jobId, idx))) return { kind: "settled" };
  const hashKey = await deps.hashKey();
  const code = codeSealer.open(pending.sealed, hashKey);
  const check = { jobId, idx, user, code };
  if (code === null) return writeResult(db, hashKey, check, async () => UNREADABLE);
  const lifecycle = { db, hashKey, settings: await lifecycleSettings(db) };
  const forms = purchaseCodeForms({ code }, (await deps.format?.()) ?? "auto");
  const asked = await ask(deps, db, jobId, pending, { code, forms, lifecycle });
  if ("kind" in asked) return asked;
  return writeResult(db, hashKey, check, async () =>
    "answer" in asked ? settle(lifecycle, code, forms, asked.answer) : asked,
  );
}

const UNREADABLE: CodeOutcome = { status: "failed", reason: UNREADABLE_CODE_REASON };

/**
 * Settles a code's answer and writes its result with its history row. When either fails (the store), neither the
 * result nor its history row was written: the code stays pending, and a later run checks it again.
 */
async function writeResult(
  db: Db,
  hashKey: string,
  check: Omit<BulkCheck, "outcome">,
  outcomeOf: () => Promise<CodeOutcome>,
): Promise<CodeStep> {
  try {
    await recordBulkCheck(db, hashKey, { ...check, outcome: await outcomeOf() });
  } catch (error) {
    logEvent("error", "bulk_check_failed", { job_id: check.jobId, idx: check.idx, error: describeError(error) });
    await backOff(db, check.jobId, check.idx, UNWRITTEN_RETRY_MS).catch(() => {});
  }
  return { kind: "settled" };
}

/** What the item service's answer comes to: valid, invalid, or revoked (a code seen valid before). */
async function settle(
  lifecycle: LifecycleDeps,
  code: string,
  forms: readonly string[],
  answer: ItemServiceAnswer,
): Promise<CodeOutcome> {
  const settled = await settleAnswer(lifecycle, { code, forms, answer, at: new Date() });
  if (answer.status === "valid") return { status: "valid", purchase: answer.purchase };
  const previous = settled.lifecycle.previously_valid;
  if (settled.outcome === "revoked" && previous)
    return { status: "revoked", reason: settled.reason ?? answer.reason, previous };
  return { status: "invalid", reason: answer.reason };
}

/**
 * A code's last try failed because the item service did not answer: a code checked before keeps its last verdict
 * (in words, as its reason), re-checked with the job's failed rows; one never checked fails as it is.
 */
async function withLastVerdict(
  lifecycle: LifecycleDeps,
  forms: readonly string[],
  error: unknown,
  failed: Extract<CodeOutcome, { status: "failed" }>,
): Promise<CodeOutcome> {
  if (!answersFromLastVerdict(error)) return failed;
  const at = new Date();
  const last = await lastVerdict(lifecycle, forms, at);
  if (!last) return failed;
  return { ...failed, reason: lastVerdictSentence(last, at), failure: failed.reason, lastVerdict: last };
}

/** The upstream's answer for one code, or what to do when there is none yet. */
async function ask(
  deps: BulkLaneDeps,
  db: Db,
  jobId: string,
  { idx, attempts, transientFailures }: PendingCode,
  { code, forms, lifecycle }: { code: string; forms: readonly string[]; lifecycle: LifecycleDeps },
): Promise<{ answer: ItemServiceAnswer } | CodeOutcome | CodeStep> {
  const items = await deps.items();
  if (!items) return NOT_CONFIGURED;
  try {
    return { answer: await askItemService(items, code) };
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    const settled = settledBy(error);
    // The item service refused the code itself: an answer like any "invalid", settled the same way.
    if (settled?.status === "invalid") return { answer: { status: "invalid", reason: settled.reason } };
    if (settled) return settled;
    if (error.kind === "rate_limited") {
      // Every try repeated is counted in `attempts`; those that were not transient failures were 429s.
      if (attempts - transientFailures >= MAX_RATE_LIMIT_WAITS) return SLOWED_DOWN_TOO_OFTEN;
      await countAttempt(db, jobId, idx);
      return { kind: "rate_limited", ms: retryAfterMs(error.retryAfter) ?? DEFAULT_RATE_LIMIT_WAIT_MS };
    }
    const tries = transientFailures + 1;
    if (tries >= MAX_TRANSIENT_ATTEMPTS)
      return withLastVerdict(lifecycle, forms, error, {
        status: "failed",
        reason: failureReason(error, tries),
        retryable: true,
      });
    await countAttempt(db, jobId, idx);
    await backOff(db, jobId, idx, BACKOFF_MS[tries - 1] ?? 3_000, true);
    return isCircuitOpenError(error)
      ? { kind: "backed_off", pauseMs: error.retryAfterSeconds * 1000 }
      : { kind: "backed_off" };
  }
}

/** The code is not tried again before `ms` from now; `transient`: a transient failure is counted. */
async function backOff(db: Db, jobId: string, idx: number, ms: number, transient = false): Promise<void> {
  await db
    .updateTable("bulk_job_codes")
    .set((eb) => ({
      not_before: new Date(Date.now() + ms).toISOString(),
      transient_failures: transient ? eb("transient_failures", "+", 1) : eb.ref("transient_failures"),
    }))
    .where("job_id", "=", jobId)
    .where("idx", "=", idx)
    .where("status", "=", "pending")
    .execute();
}
