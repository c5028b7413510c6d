// How a bulk job's codes get checked, behind one interface (BulkChecks): on BullMQ when REDIS_URL is set
// (lib/jobs: each code is a job of the "bulk-check" kind, spread over every instance, at most CONCURRENCY
// checks at once across the cluster, a 429 pausing every instance), else by the in-process runner (./runner.ts).
// Either way the store is the record: progress and results are written there, once per code, and whatever is
// still pending in the store is (re)queued — at start, every SWEEP_MS and when a job is created — so a Redis that
// lost its data, or a job created while it was away, loses nothing.
import { setTimeout as sleep } from "node:timers/promises";

import "server-only";

import { sql } from "kysely";
import { z } from "zod";

import { getServerContext } from "@/lib/auth/access";
import { retryAfterMs } from "@/lib/contract/retry-after";
import { currentCluster } from "@/lib/cluster";
import type { Db } from "@/lib/db";
import { defineJob, type JobOutcome, type JobProvider } from "@/lib/jobs";
import { startBullJobs } from "@/lib/jobs/bullmq";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { emitEvent } from "@/lib/events";
import { describeError, logEvent } from "@/lib/log";
import { getUpstreams, isCircuitOpenError, isUpstreamError, type ItemsClient } from "@/lib/upstream";
import { processPromise } from "@/lib/process-wide";

import { askItemService } from "../check";
import { codeSealer, UNREADABLE_CODE_REASON } from "./code-seal";
import { ACTIVE_STATUSES, purgeExpiredBulkJobs, settleCancelledJobs } from "./jobs";
import { beginCheck, countAttempt, recordBulkCheck, type CodeOutcome } from "./results";
import { findBulkJobSummary } from "./summaries";
import {
  BACKOFF_MS,
  bulkRunner,
  CONCURRENCY,
  DEFAULT_RATE_LIMIT_WAIT_MS,
  MAX_TRANSIENT_ATTEMPTS,
  MAX_WAIT_MS,
} from "./runner";
import { failureReason, MAX_RATE_LIMIT_WAITS, NOT_CONFIGURED, settledBy, SLOWED_DOWN_TOO_OFTEN } from "./verdicts";

/** What the routes (and later schedulers) know of the job runner. */
export interface BulkChecks {
  readonly runsOn: "queue" | "process";
  /** A job was created (or has codes pending again): have its codes checked. */
  started(jobId: string): Promise<void>;
}

const KIND = "bulk-check";
const SWEEP_MS = 15_000;
const PURGE_EVERY_MS = 3_600_000;

const codeItem = z.object({ job: z.string(), idx: z.number().int() });
type CodeItem = z.infer<typeof codeItem>;

const itemId = (jobId: string, idx: number) => `bulk-${jobId}-${idx}`;

export interface QueuedDeps {
  db: () => Promise<Db>;
  hashKey: () => string;
  items: () => Promise<ItemsClient | null>;
}

/** Bulk checks as jobs, one per code. */
export class QueuedBulkChecks implements BulkChecks {
  readonly runsOn = "queue" as const;
  private jobs: JobProvider | null = null;

  constructor(private readonly deps: QueuedDeps) {}

  /** The kind, its handler this instance's. */
  readonly definition = defineJob({
    kind: KIND,
    payload: codeItem,
    concurrency: CONCURRENCY,
    handle: (data) => this.handle(data),
  });

  attach(jobs: JobProvider): void {
    this.jobs = jobs;
  }

  async started(jobId: string): Promise<void> {
    const db = await this.deps.db();
    const pending = await db
      .selectFrom("bulk_job_codes")
      .select("idx")
      .where("job_id", "=", jobId)
      .where("status", "=", "pending")
      .orderBy("idx")
      .execute();
    try {
      const { jobs } = this;
      if (jobs)
        await Promise.all(
          pending.map(({ idx }) => jobs.trigger(KIND, { job: jobId, idx }, { id: itemId(jobId, idx) })),
        );
    } catch (error) {
      // Redis away: the codes stay pending in the store, and the next sweep queues them.
      logEvent("warn", "bulk_job_not_queued", { job_id: jobId, error: describeError(error) });
    }
  }

  /** Queues what the store has pending (adding an item twice is harmless). */
  async sweep(): Promise<void> {
    try {
      const db = await this.deps.db();
      await settleCancelledJobs(db);
      const jobs = await db
        .selectFrom("bulk_jobs")
        .select("id")
        .where("status", "in", [...ACTIVE_STATUSES])
        .orderBy("created_at")
        .execute();
      for (const job of jobs) await this.started(job.id);
    } catch (error) {
      logEvent("error", "bulk_sweep_failed", { error: describeError(error) });
    }
  }

  /** One code: checked and written once; a code found no longer pending (done, cancelled, a rerun) is skipped. */
  async handle({ job: jobId, idx }: CodeItem): Promise<JobOutcome> {
    const db = await this.deps.db();
    const row = await db
      .selectFrom("bulk_jobs as j")
      .innerJoin("bulk_job_codes as c", "c.job_id", "j.id")
      .select([
        "j.status as jobStatus",
        "j.user_id as userId",
        "j.user_email as userEmail",
        "c.status as codeStatus",
        "c.code_sealed as sealed",
        "c.attempts as attempts",
      ])
      .where("j.id", "=", jobId)
      .where("c.idx", "=", idx)
      .executeTakeFirst();
    if (!row || !(ACTIVE_STATUSES as readonly string[]).includes(row.jobStatus) || row.codeStatus !== "pending")
      return { kind: "done" };
    const now = new Date().toISOString();
    if (row.jobStatus !== "running") {
      await db
        .updateTable("bulk_jobs")
        .set((eb) => ({
          status: "running",
          waiting_until: null,
          started_at: eb.fn.coalesce("started_at", eb.val(now)),
        }))
        .where("id", "=", jobId)
        .where("status", "in", ["queued", "waiting"])
        .execute();
    }
    // Under way from here: a cancel now lets this check write its result rather than mark the code cancelled.
    if (!(await beginCheck(db, jobId, idx))) return { kind: "done" };
    const code = codeSealer.open(row.sealed, this.deps.hashKey());
    const outcome: CodeOutcome | JobOutcome =
      code === null
        ? { status: "failed", reason: UNREADABLE_CODE_REASON }
        : await this.ask(db, jobId, idx, code, row.attempts);
    if ("kind" in outcome) return outcome;
    try {
      await recordBulkCheck(db, this.deps.hashKey(), {
        jobId,
        idx,
        user: { id: row.userId, email: row.userEmail },
        code,
        outcome,
      });
    } catch (error) {
      // Neither the result nor its history row was written: the code stays pending, and the next sweep queues it
      // again (a failed job would keep its id, and the sweep could not add it back).
      logEvent("error", "bulk_check_failed", { job_id: jobId, idx, error: describeError(error) });
      return { kind: "done" };
    }
    await this.finishIfDone(db, jobId);
    return { kind: "done" };
  }

  /** The upstream's answer for one code; transient failures are tried again here, a 429 pauses every instance. */
  private async ask(
    db: Db,
    jobId: string,
    idx: number,
    code: string,
    attempts: number,
  ): Promise<CodeOutcome | JobOutcome> {
    const items = await this.deps.items();
    if (!items) return NOT_CONFIGURED;
    for (let transient = 1; ; transient += 1) {
      try {
        return await askItemService(items, code);
      } catch (error) {
        if (!isUpstreamError(error)) throw error;
        const settled = settledBy(error);
        if (settled) return settled;
        if (error.kind === "rate_limited") {
          if (attempts >= MAX_RATE_LIMIT_WAITS) return SLOWED_DOWN_TOO_OFTEN;
          const ms = Math.min(retryAfterMs(error.retryAfter) ?? DEFAULT_RATE_LIMIT_WAIT_MS, MAX_WAIT_MS);
          await countAttempt(db, jobId, idx);
          await db
            .updateTable("bulk_jobs")
            .set({ status: "waiting", waiting_until: new Date(Date.now() + ms).toISOString() })
            .where("id", "=", jobId)
            .where("status", "in", ["running", "queued"])
            .execute();
          return { kind: "pause_all", ms };
        }
        // A failure a later try may pass (network, timeout, 5xx): a re-check of the job's failed rows takes it.
        if (transient >= MAX_TRANSIENT_ATTEMPTS)
          return { status: "failed", reason: failureReason(error, transient), retryable: true };
        await countAttempt(db, jobId, idx);
        if (isCircuitOpenError(error)) return { kind: "pause_all", ms: error.retryAfterSeconds * 1000 };
        await sleep(BACKOFF_MS[transient - 1] ?? 3_000);
        // countAttempt ended the check's time under way: a cancel during the backoff ends the code here.
        if (!(await beginCheck(db, jobId, idx))) return { kind: "done" };
      }
    }
  }

  private async finishIfDone(db: Db, jobId: string): Promise<void> {
    const left = await db
      .selectFrom("bulk_job_codes")
      .select(sql<number>`count(*)`.as("n"))
      .where("job_id", "=", jobId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(left?.n ?? 0) > 0) return;
    const result = await db
      .updateTable("bulk_jobs")
      .set({
        status: "done",
        finished_at: new Date().toISOString(),
        waiting_until: null,
        lease_owner: null,
        lease_until: null,
      })
      .where("id", "=", jobId)
      .where("status", "in", [...ACTIVE_STATUSES])
      .executeTakeFirst();
    // One instance wins the update above: it alone tells of the finished job, as the in-process runner does.
    if (Number(result.numUpdatedRows) !== 1) return;
    logEvent("info", "bulk_job_finished", { job_id: jobId });
    await emitEvent({
      type: "bulk_job.finished",
      data: { job: (await findBulkJobSummary(db, jobId, { userId: null })) ?? { id: jobId } },
    });
  }
}

// ---------------------------------------------------------------------------------------------------------
// One BulkChecks per process, whichever bundle asks first (instrumentation at start, or a bulk route).

async function start(): Promise<BulkChecks> {
  const cluster = currentCluster();
  if (!cluster.redis) {
    const runner = await bulkRunner();
    return { runsOn: "process", started: async () => runner.kick(true) };
  }
  const { config } = await getServerContext();
  const checks = new QueuedBulkChecks({
    db: async () => (await getServerContext()).db,
    hashKey: () => config.dataKey,
    items: async () => (await getUpstreams()).items,
  });
  checks.attach(await startBullJobs(cluster, [checks.definition]));
  const sweeper = setInterval(() => void checks.sweep(), SWEEP_MS).unref();
  const purge = async () => {
    const removed = await purgeExpiredBulkJobs((await getServerContext()).db);
    if (removed > 0) logEvent("info", "bulk_jobs_purged", { removed });
  };
  const purger = setInterval(
    () =>
      void purge().catch((error: unknown) => logEvent("error", "bulk_purge_failed", { error: describeError(error) })),
    PURGE_EVERY_MS,
  ).unref();
  onShutdown("bulk sweeper", () => {
    clearInterval(sweeper);
    clearInterval(purger);
  });
  void checks.sweep();
  return checks;
}

/** The process's bulk checks: on the queue with REDIS_URL, in process otherwise. Started once (again if it failed). */
export function bulkChecks(): Promise<BulkChecks> {
  return processPromise("purchases.bulkChecks", start);
}
