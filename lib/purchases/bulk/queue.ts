// Bulk purchase checks in the server process: each bulk job is a job of the process's job system (lib/jobs,
// started with bulkChecks among its kinds; its runs: ./lane.ts). The store is the record: whatever is still pending
// there is queued again by the sweep — at start and every SWEEP_MS — so a Redis that lost its data, a trigger lost
// while it was away, or a job left by a process that stopped loses nothing. The sweep also ends the codes cancelled
// jobs left under way; the jobs past their 7 days are purged every hour.
import "server-only";

import { getServerContext } from "@/lib/auth/access";
import type { Db } from "@/lib/db";
import { trigger } from "@/lib/jobs";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { processSlot } from "@/lib/process-wide";
import { getUpstreams } from "@/lib/upstream";

import { ACTIVE_STATUSES, purgeExpiredBulkJobs, settleCancelledJobs } from "./jobs";
import { bulkCheckJob, laneId } from "./lane";

const SWEEP_MS = 15_000;
const PURGE_EVERY_MS = 3_600_000;

const db = async () => (await getServerContext()).db;

/** The kind of bulk checks, among the kinds startJobs() is given at start-up. */
export const bulkChecks = bulkCheckJob({
  db,
  hashKey: async () => (await getServerContext()).config.dataKey,
  items: async () => (await getUpstreams()).items,
  format: async () => (await getServerContext()).config.purchases.codeFormat,
});

/** A job was created (or has codes pending again): have its codes checked. */
export async function queueBulkJob(jobId: string): Promise<void> {
  try {
    await trigger(bulkChecks, { job: jobId }, { id: laneId(jobId) });
  } catch (error) {
    // Redis away: the codes stay pending in the store, and the next sweep queues the job.
    logEvent("warn", "bulk_job_not_queued", { job_id: jobId, error: describeError(error) });
  }
}

/** Queues every active job (a job queued twice is one job), after ending what cancelled jobs left under way. */
export async function sweepBulkJobs(store: Db, queue: (jobId: string) => Promise<void>): Promise<void> {
  await settleCancelledJobs(store);
  const jobs = await store
    .selectFrom("bulk_jobs")
    .select("id")
    .where("status", "in", [...ACTIVE_STATUSES])
    .orderBy("created_at")
    .execute();
  for (const job of jobs) await queue(job.id);
}

const TIMERS = processSlot<NodeJS.Timeout[]>("purchases.bulkChecks");

/** Starts the sweep and the purge (once a process; after startJobs). */
export function startBulkChecks(): void {
  if (TIMERS.get()) return;
  const sweep = async () => sweepBulkJobs(await db(), queueBulkJob);
  const purge = async () => {
    const removed = await purgeExpiredBulkJobs(await db());
    if (removed > 0) logEvent("info", "bulk_jobs_purged", { removed });
  };
  const every = (ms: number, work: () => Promise<void>, failed: string) => {
    const run = () => void work().catch((error: unknown) => logEvent("error", failed, { error: describeError(error) }));
    run();
    return runOutsideRequestContext(() => setInterval(run, ms).unref());
  };
  const timers = [every(SWEEP_MS, sweep, "bulk_sweep_failed"), every(PURGE_EVERY_MS, purge, "bulk_purge_failed")];
  TIMERS.set(timers);
  onShutdown("bulk purchase checks", () => timers.forEach(clearInterval));
}
