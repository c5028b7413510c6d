// Durable work on a real queue: BullMQ on the cluster's Redis. A kind of work (bulk purchase checks; later
// webhook deliveries, scheduled report runs) has its own queue, handler and cluster-wide concurrency; its items
// are small (ids), the state they work on stays in the store. An item added twice under one id is one item.
//
// An instance that dies (kill -9) holds its items by a lock that lapses after LOCK_MS; another instance's
// stalled check (every STALLED_INTERVAL_MS) puts them back, and they run again. So a handler must be
// idempotent — written once in the store, never counted twice — and an item is never failed because its
// worker died (no stalled limit). A graceful stop lets running items finish (at most a few seconds) and hands
// the rest back at once.
//
// Without Redis the process runs its work in process (lib/purchases/bulk/runner.ts for bulk checks); both sit
// behind the same small interface of their kind (lib/purchases/bulk/queue.ts).
import { setTimeout as sleep } from "node:timers/promises";

import "server-only";

import { Queue, Worker, type Job, type RedisOptions as BullRedisOptions } from "bullmq";

import type { Cluster } from "@/lib/cluster";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { metrics, onCollect } from "@/lib/metrics";

export const LOCK_MS = 10_000;
export const STALLED_INTERVAL_MS = 5_000;
const STOP_WAIT_MS = 3_000;

/** What a handler answers: done, or "the upstream asks everyone to wait `ms`" (the item runs again after). */
export type ItemOutcome = { kind: "done" } | { kind: "pause_all"; ms: number };

export interface KindOptions<T> {
  /** The kind's name; its queue is gatehouse-<kind>. */
  kind: string;
  /** Items of this kind running at once across every instance. */
  concurrency: number;
  handle(data: T, item: { id: string; attemptsMade: number }): Promise<ItemOutcome>;
}

export interface WorkQueue<T> {
  /** Adds items (their ids make adding again harmless). Rejects when Redis is away: the caller keeps the store's record. */
  add(items: Array<{ id: string; data: T }>): Promise<void>;
  /** Items waiting (not running) across the cluster. */
  waiting(): Promise<number>;
  close(): Promise<void>;
}

/** Starts a kind's queue and its worker on this instance. */
export async function startWorkQueue<T>(cluster: Cluster, options: KindOptions<T>): Promise<WorkQueue<T>> {
  const redis = cluster.connectionOptions();
  if (!redis) throw new Error("a work queue needs Redis (REDIS_URL)");
  const connection: BullRedisOptions = {
    host: redis.host,
    port: redis.port,
    username: redis.username,
    password: redis.password,
    db: redis.db,
    tls: redis.tls,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
  };
  const name = `gatehouse-${options.kind}`;
  // The producer fails fast while Redis is away; the worker waits for it (BullMQ's own advice).
  const queue = new Queue(name, { connection: { ...connection, enableOfflineQueue: false }, prefix: "gatehouse-bull" });
  queue.on("error", () => {});
  const processed = metrics().jobs;

  const worker = new Worker(
    name,
    async (job: Job<T>) =>
      runOutsideRequestContext(async () => {
        const outcome = await options.handle(job.data, { id: job.id ?? "", attemptsMade: job.attemptsMade });
        if (outcome.kind === "pause_all") {
          // Every worker of the queue, on every instance, waits; this item goes back to the front.
          await worker.rateLimit(outcome.ms);
          processed.inc({ kind: options.kind, outcome: "paused" });
          throw Worker.RateLimitError();
        }
        processed.inc({ kind: options.kind, outcome: "done" });
      }),
    {
      connection: { ...connection, maxRetriesPerRequest: null },
      prefix: "gatehouse-bull",
      concurrency: options.concurrency,
      lockDuration: LOCK_MS,
      stalledInterval: STALLED_INTERVAL_MS,
      // A worker that died is never the item's fault.
      maxStalledCount: 1_000_000,
      autorun: false,
      // Not a limit (far above any real rate): it turns on the limiter that worker.rateLimit() pauses.
      limiter: { max: 100_000, duration: 1_000 },
    },
  );
  worker.on("error", () => {});
  worker.on("failed", (job, error) => {
    processed.inc({ kind: options.kind, outcome: "error" });
    logEvent("error", "job_item_failed", { kind: options.kind, item: job?.id, error: describeError(error) });
  });
  // The cluster-wide limit: at most `concurrency` items of the kind run at once, whatever the number of instances.
  // It lives in Redis: set it again whenever the connection comes back (a Redis restarted empty forgot it).
  let limitTimer: NodeJS.Timeout | null = null;
  const setLimit = (): void => {
    if (limitTimer) clearTimeout(limitTimer);
    queue.setGlobalConcurrency(options.concurrency).then(
      () => (limitTimer = null),
      () => (limitTimer = setTimeout(setLimit, 1_000).unref()),
    );
  };
  // Before this worker takes anything, when Redis is there to say it (a few seconds at most at start).
  for (const until = Date.now() + 3_000; !cluster.up() && Date.now() < until;) await sleep(20);
  if (
    !(await queue.setGlobalConcurrency(options.concurrency).then(
      () => true,
      () => false,
    ))
  )
    setLimit();
  cluster.redis?.on("ready", setLimit);
  void worker
    .run()
    .catch((error: unknown) =>
      logEvent("error", "job_worker_stopped", { kind: options.kind, error: describeError(error) }),
    );

  onCollect(async () => {
    const counts = await queue.getJobCounts("wait", "delayed", "prioritized", "waiting-children");
    metrics().queueDepth.set(
      { kind: options.kind },
      Object.values(counts).reduce((sum, n) => sum + n, 0),
    );
  });

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (limitTimer) clearTimeout(limitTimer);
    cluster.redis?.off("ready", setLimit);
    // Let the running items finish (an upstream call each); whatever still runs then goes back to the queue.
    const finished = await Promise.race([worker.close().then(() => true), sleep(STOP_WAIT_MS).then(() => false)]);
    if (!finished) await worker.close(true).catch(() => {});
    await queue.close().catch(() => {});
  };
  onShutdown(`${options.kind} worker`, close);

  return {
    async add(items) {
      if (items.length === 0) return;
      await queue.addBulk(
        items.map((item) => ({
          name: options.kind,
          data: item.data,
          opts: {
            jobId: item.id,
            // Retries are the handler's to decide (it knows which failures are transient); kept briefly for the depth.
            attempts: 1,
            removeOnComplete: true,
            removeOnFail: 1000,
          },
        })),
      );
    },
    async waiting() {
      const counts = await queue.getJobCounts("wait", "delayed", "prioritized");
      return Object.values(counts).reduce((sum, n) => sum + n, 0);
    },
    close,
  };
}
