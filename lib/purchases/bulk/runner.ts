// Runs bulk purchase checks in the server process, apart from any request: the job is in the store, so a closed
// tab loses nothing, and a restarted (or another) process resumes what is pending.
//
// - At most CONCURRENCY upstream calls at once, across all jobs of the process, taken from the jobs in turn so
//   that one big batch does not hold up everyone else's.
// - A 429 from the item service pauses every check of the process for its Retry-After (the limit is on our key,
//   not on one job); the code goes back to the front of its queue. A code that meets more than
//   MAX_RATE_LIMIT_WAITS of them fails, so a job always ends.
// - A transient failure (timeout, unreachable, 5xx, an open circuit breaker) is tried again after a backoff, at
//   most MAX_TRANSIENT_ATTEMPTS times; then the code fails with the reason.
// - A job is held by lease (LEASE_MS, renewed every HEARTBEAT_MS). A process that dies lets its lease run out
//   and the job is taken up again; a graceful shutdown lets go at once.
// - Each result is written once (pending → valid | invalid | failed), in one transaction with its history row.
import "server-only";

import { getServerContext } from "@/lib/auth/access";
import { retryAfterMs } from "@/lib/contract/retry-after";
import type { Db } from "@/lib/db";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { emitEvent } from "@/lib/events";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { getUpstreams, isCircuitOpenError, isUpstreamError, type ItemsClient } from "@/lib/upstream";
import { processSlot, processWide } from "@/lib/process-wide";

import { askItemService } from "../check";
import { codeSealer, UNREADABLE_CODE_REASON } from "./code-seal";
import { purgeExpiredBulkJobs, settleCancelledJobs, type BulkUser } from "./jobs";
import { findBulkJobSummary } from "./summaries";
import { claimBulkJob, finishJob, jobStillOurs, releaseLeases, renewLeases, setWaiting } from "./leases";
import { beginCheck, countAttempt, pendingCodes, recordBulkCheck, type CodeOutcome } from "./results";
import { failureReason, MAX_RATE_LIMIT_WAITS, NOT_CONFIGURED, settledBy, SLOWED_DOWN_TOO_OFTEN } from "./verdicts";

export const CONCURRENCY = 3;
export const LEASE_MS = 30_000;
const HEARTBEAT_MS = 10_000;
/** How often an idle runner looks for a job created elsewhere (another process, a scheduler): no 10 s wait. */
const POLL_MS = 2_000;
const PURGE_EVERY_MS = 3_600_000;
export const MAX_TRANSIENT_ATTEMPTS = 3;
/** When a 429 carries no usable Retry-After. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 5_000;
/** A Retry-After beyond this is read as this: the job shows when it resumes, and a restart starts over anyway. */
export const MAX_WAIT_MS = 3_600_000;
export const BACKOFF_MS = [1_000, 3_000];
/** Jobs one process works on at once (in turn); more wait in the store. */
const MAX_OWNED_JOBS = 20;

interface Task {
  idx: number;
  sealed: string;
  transientFailures: number;
  rateLimitWaits: number;
  /** Not before this time (a backoff after a transient failure). */
  notBefore: number;
}

interface OwnedJob {
  id: string;
  user: BulkUser;
  queue: Task[];
  inFlight: number;
  /** Set when the job was cancelled or taken over: no new check starts. */
  dropped: boolean;
}

export interface BulkRunnerDeps {
  db: () => Promise<Db>;
  hashKey: () => string;
  items: () => Promise<ItemsClient | null>;
  concurrency?: number;
}

export class BulkRunner {
  /** Identifies this process's leases. */
  readonly owner = `${process.pid}-${crypto.randomUUID()}`;
  private readonly concurrency: number;
  private readonly jobs = new Map<string, OwnedJob>();
  private turn = 0;
  private active = 0;
  private pausedUntil = 0;
  private waitingShown = false;
  private pumping = false;
  private pumpAgain = false;
  private claimWanted = true;
  private stopped = false;
  private wakeTimer: NodeJS.Timeout | null = null;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly poller: NodeJS.Timeout;
  private readonly purger: NodeJS.Timeout;
  private readonly idle = new Set<() => void>();

  constructor(private readonly deps: BulkRunnerDeps) {
    this.concurrency = deps.concurrency ?? CONCURRENCY;
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS).unref();
    this.poller = setInterval(() => {
      if (this.jobs.size < MAX_OWNED_JOBS) this.kick(true);
    }, POLL_MS).unref();
    this.purger = setInterval(() => void this.purge(), PURGE_EVERY_MS).unref();
    void this.purge();
  }

  /** Look for work now; `newJob` when a job was just created (take it in turn with the running ones). */
  kick(newJob = false): void {
    if (newJob) this.claimWanted = true;
    runOutsideRequestContext(() => void this.pump());
  }

  /** Stops taking checks, waits for those in flight (at most `timeoutMs`), and lets go of the leases. */
  async stop(timeoutMs = 3_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearInterval(this.poller);
    clearInterval(this.purger);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    if (this.active > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.idle.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    await releaseLeases(await this.deps.db(), this.owner).catch((error: unknown) =>
      logEvent("error", "bulk_release_failed", { error: describeError(error) }),
    );
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        await this.fill();
      } while (this.pumpAgain && !this.stopped);
    } catch (error) {
      // The store failed: try again shortly rather than leave jobs idle until the next heartbeat.
      logEvent("error", "bulk_runner_failed", { error: describeError(error) });
      this.wakeAt(Date.now() + 2_000);
    } finally {
      this.pumping = false;
    }
  }

  /** Starts checks until CONCURRENCY are in flight or nothing is ready. */
  private async fill(): Promise<void> {
    if (this.stopped) return;
    const now = Date.now();
    if (now < this.pausedUntil) return this.wakeAt(this.pausedUntil);
    if (this.waitingShown) {
      this.waitingShown = false;
      await setWaiting(await this.deps.db(), this.owner, [...this.jobs.keys()], null);
    }
    // Jobs are taken up when one is created (or the heartbeat asks), and whenever there is room and nothing to do.
    if (this.claimWanted || (this.active < this.concurrency && this.nextReadyAt() === null)) {
      this.claimWanted = false;
      while (this.jobs.size < MAX_OWNED_JOBS && (await this.claim()));
    }
    while (this.active < this.concurrency) {
      const next = this.nextTask(now);
      if (!next) break;
      const { job, task } = next;
      this.active += 1;
      job.inFlight += 1;
      void this.check(job, task).finally(() => {
        this.active -= 1;
        job.inFlight -= 1;
        if (this.active === 0) {
          for (const resolve of this.idle) resolve();
          this.idle.clear();
        }
        void this.settle(job).finally(() => this.kick());
      });
    }
    const soonest = this.soonestDelayed();
    if (soonest !== null) this.wakeAt(soonest);
  }

  /** The next ready task, taking the owned jobs in turn. */
  private nextTask(now: number): { job: OwnedJob; task: Task } | null {
    const jobs = [...this.jobs.values()].filter((job) => !job.dropped);
    for (let i = 0; i < jobs.length; i += 1) {
      const job = jobs[(this.turn + i) % jobs.length]!;
      const at = job.queue.findIndex((task) => task.notBefore <= now);
      if (at >= 0) {
        this.turn = (this.turn + i + 1) % jobs.length;
        const [task] = job.queue.splice(at, 1);
        return { job, task: task! };
      }
    }
    return null;
  }

  /** When the next queued task may start (now, or after a backoff); null when nothing is queued. */
  private nextReadyAt(): number | null {
    let soonest: number | null = null;
    for (const job of this.jobs.values()) {
      if (job.dropped) continue;
      for (const task of job.queue) if (soonest === null || task.notBefore < soonest) soonest = task.notBefore;
    }
    return soonest;
  }

  private soonestDelayed(): number | null {
    const soonest = this.nextReadyAt();
    return soonest !== null && soonest > Date.now() ? soonest : null;
  }

  /** Takes one more job from the store, with its pending codes. */
  private async claim(): Promise<boolean> {
    const db = await this.deps.db();
    const claimed = await claimBulkJob(db, this.owner, LEASE_MS, new Date(), [...this.jobs.keys()]);
    if (!claimed) return false;
    const pending = await pendingCodes(db, claimed.id);
    const job: OwnedJob = {
      id: claimed.id,
      user: claimed.user,
      queue: pending.map((code) => ({
        idx: code.idx,
        sealed: code.sealed,
        transientFailures: 0,
        rateLimitWaits: 0,
        notBefore: 0,
      })),
      inFlight: 0,
      dropped: false,
    };
    this.jobs.set(job.id, job);
    logEvent("info", "bulk_job_started", { job_id: job.id, pending: pending.length });
    if (job.queue.length === 0) await this.settle(job);
    return true;
  }

  /** After a check: a job with nothing queued or in flight is finished — once the store agrees nothing is pending. */
  private async settle(job: OwnedJob): Promise<void> {
    if (job.inFlight > 0 || (job.queue.length > 0 && !job.dropped)) return;
    if (!this.jobs.has(job.id)) return;
    const db = await this.deps.db();
    if (!job.dropped) {
      // A result that could not be written leaves its code pending: take it up again rather than lose it.
      const left = await pendingCodes(db, job.id);
      if (left.length > 0) {
        job.queue.push(
          ...left.map((code) => ({
            idx: code.idx,
            sealed: code.sealed,
            transientFailures: 0,
            rateLimitWaits: 0,
            notBefore: Date.now() + 1_000,
          })),
        );
        return;
      }
      await finishJob(db, job.id, this.owner);
      logEvent("info", "bulk_job_finished", { job_id: job.id });
      await emitEvent({
        type: "bulk_job.finished",
        data: { job: (await findBulkJobSummary(db, job.id, { userId: null })) ?? { id: job.id } },
      });
    }
    this.jobs.delete(job.id);
  }

  private async check(job: OwnedJob, task: Task): Promise<void> {
    const { hashKey } = this.deps;
    const db = await this.deps.db();
    try {
      if (job.dropped || !(await jobStillOurs(db, job.id, this.owner))) {
        job.dropped = true;
        return;
      }
      // Under way from here: a cancel now lets this check write its result rather than mark the code cancelled.
      if (!(await beginCheck(db, job.id, task.idx))) return;
      const code = codeSealer.open(task.sealed, hashKey());
      const outcome: CodeOutcome | null =
        code === null ? { status: "failed", reason: UNREADABLE_CODE_REASON } : await this.ask(job, task, code);
      if (outcome === null) return; // put back: rate limited or a transient failure
      await recordBulkCheck(db, hashKey(), { jobId: job.id, idx: task.idx, user: job.user, code, outcome });
    } catch (error) {
      // The store failed mid-check (or the result and its history row could not be written): the code stays
      // pending in the store, and settle() takes it up again.
      logEvent("error", "bulk_check_failed", { job_id: job.id, idx: task.idx, error: describeError(error) });
    }
  }

  /** One upstream check. Null: the code went back to the queue. */
  private async ask(job: OwnedJob, task: Task, code: string): Promise<CodeOutcome | null> {
    const items = await this.deps.items();
    if (!items) return NOT_CONFIGURED;
    try {
      return await askItemService(items, code);
    } catch (error) {
      if (!isUpstreamError(error)) throw error;
      if (error.kind === "rate_limited") {
        task.rateLimitWaits += 1;
        if (task.rateLimitWaits > MAX_RATE_LIMIT_WAITS) return SLOWED_DOWN_TOO_OFTEN;
        await this.pause(retryAfterMs(error.retryAfter) ?? DEFAULT_RATE_LIMIT_WAIT_MS);
        job.queue.unshift(task);
        await countAttempt(await this.deps.db(), job.id, task.idx);
        return null;
      }
      const settled = settledBy(error);
      if (settled) return settled;
      task.transientFailures += 1;
      if (task.transientFailures >= MAX_TRANSIENT_ATTEMPTS)
        return { status: "failed", reason: failureReason(error, task.transientFailures), retryable: true };
      if (isCircuitOpenError(error)) await this.pause(error.retryAfterSeconds * 1000, false);
      task.notBefore = Date.now() + (BACKOFF_MS[task.transientFailures - 1] ?? 3_000);
      job.queue.push(task);
      await countAttempt(await this.deps.db(), job.id, task.idx);
      return null;
    }
  }

  /** Holds every check of the process for `ms`; shows the jobs as waiting when the item service asked for it. */
  private async pause(ms: number, show = true): Promise<void> {
    const until = Date.now() + Math.min(Math.max(ms, 0), MAX_WAIT_MS);
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    logEvent("warn", "bulk_paused", {
      wait_ms: until - Date.now(),
      reason: show ? "upstream_rate_limited" : "upstream_unavailable",
    });
    if (show) {
      this.waitingShown = true;
      await setWaiting(await this.deps.db(), this.owner, [...this.jobs.keys()], new Date(until));
    }
    this.wakeAt(until);
  }

  private wakeAt(at: number): void {
    if (this.stopped) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = setTimeout(
      () => {
        this.wakeTimer = null;
        this.kick();
      },
      Math.max(0, at - Date.now()) + 5,
    );
    this.wakeTimer.unref();
  }

  /** Keeps the leases alive, notices cancelled jobs, and picks up jobs another process left. */
  private async beat(): Promise<void> {
    try {
      const db = await this.deps.db();
      await renewLeases(db, this.owner, [...this.jobs.keys()], LEASE_MS);
      await settleCancelledJobs(db);
      for (const job of this.jobs.values()) {
        if (!(await jobStillOurs(db, job.id, this.owner))) {
          job.dropped = true;
          job.queue = [];
          if (job.inFlight === 0) this.jobs.delete(job.id);
        }
      }
      this.kick(true);
    } catch (error) {
      logEvent("error", "bulk_heartbeat_failed", { error: describeError(error) });
    }
  }

  private async purge(): Promise<void> {
    try {
      const removed = await purgeExpiredBulkJobs(await this.deps.db());
      if (removed > 0) logEvent("info", "bulk_jobs_purged", { removed });
    } catch (error) {
      logEvent("error", "bulk_purge_failed", { error: describeError(error) });
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// One runner per process, whichever bundle asks first (instrumentation at start, or a bulk route).

const RUNNER = "purchases.bulkRunner";

/** The process's runner, started on first use; it resumes jobs left pending by an earlier process. */
export async function bulkRunner(): Promise<BulkRunner> {
  let runner = processSlot<BulkRunner>(RUNNER).get();
  if (!runner) {
    const { config } = await getServerContext();
    runner = processWide(
      RUNNER,
      () =>
        new BulkRunner({
          db: async () => (await getServerContext()).db,
          hashKey: () => config.dataKey,
          items: async () => (await getUpstreams()).items,
        }),
    );
    const started = runner;
    onShutdown("bulk purchase checks", () => started.stop());
    started.kick();
  }
  return runner;
}
