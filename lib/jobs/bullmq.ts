// The jobs on BullMQ, on the cluster's Redis (REDIS_URL): a kind is a queue (gatehouse-<kind>) with its worker on
// every instance, at most `concurrency` of its jobs running at once across the cluster. A job's run time and its
// retries are BullMQ's delayed jobs; a pause (429) is the worker's rate limit, which holds every worker of the
// queue on every instance.
//
// An instance that dies (kill -9) holds its jobs by a lock that lapses after LOCK_MS; another instance's stalled
// check (every STALLED_INTERVAL_MS) puts them back, and they run again — never failed for it (no stalled limit).
// A graceful stop lets running jobs finish (at most a few seconds) and hands the rest back at once.
import { setTimeout as sleep } from "node:timers/promises";

import "server-only";

import { DelayedError, Queue, Worker, type Job, type RedisOptions as BullRedisOptions } from "bullmq";

import type { Cluster } from "@/lib/cluster";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent } from "@/lib/log";

import { collectDepth, runJob, type AnyJobDefinition, type JobProvider } from "./run";

export const LOCK_MS = 10_000;
export const STALLED_INTERVAL_MS = 5_000;
const STOP_WAIT_MS = 3_000;
const PREFIX = "gatehouse-bull";

/** A job as BullMQ keeps it: the payload, and the retries counted so far (a pause is not one). */
interface Stored {
  payload: unknown;
  retries: number;
}

interface Kind {
  queue: Queue<Stored>;
  close(): Promise<void>;
}

/** Starts every kind's queue, and its worker on this instance. */
export async function startBullJobs(cluster: Cluster, definitions: readonly AnyJobDefinition[]): Promise<JobProvider> {
  const redis = cluster.connectionOptions();
  if (!redis) throw new Error("BullMQ needs Redis (REDIS_URL)");
  const connection: BullRedisOptions = {
    host: redis.host,
    port: redis.port,
    username: redis.username,
    password: redis.password,
    db: redis.db,
    tls: redis.tls,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
  };
  // Before any worker takes anything, when Redis is there to say it (a few seconds at most at start).
  for (const until = Date.now() + 3_000; !cluster.up() && Date.now() < until;) await sleep(20);
  const kinds = new Map<string, Kind>();
  for (const definition of definitions) kinds.set(definition.kind, await startKind(cluster, connection, definition));

  const kindOf = (name: string): Kind => {
    const kind = kinds.get(name);
    if (!kind) throw new Error(`no jobs of kind ${name} were started`);
    return kind;
  };
  const provider: JobProvider = {
    runsOn: "queue",
    async trigger(kind, payload, { id, runAt }) {
      await kindOf(kind).queue.add(
        kind,
        { payload, retries: 0 },
        {
          jobId: id,
          delay: runAt ? Math.max(0, runAt.getTime() - Date.now()) : undefined,
          // Retries are the provider's (runJob's answer), not BullMQ's; a failed job is kept briefly to be seen.
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: 1000,
        },
      );
    },
    async waiting(kind) {
      const counts = await kindOf(kind).queue.getJobCounts("wait", "delayed", "prioritized");
      return Object.values(counts).reduce((sum, n) => sum + n, 0);
    },
    async stop() {
      await Promise.all([...kinds.values()].map((kind) => kind.close()));
    },
  };
  collectDepth(provider, [...kinds.keys()]);
  onShutdown("jobs (BullMQ)", () => provider.stop());
  return provider;
}

async function startKind(cluster: Cluster, connection: BullRedisOptions, definition: AnyJobDefinition): Promise<Kind> {
  const name = `gatehouse-${definition.kind}`;
  // The producer fails fast while Redis is away; the worker waits for it (BullMQ's own advice).
  const queue = new Queue<Stored>(name, { connection: { ...connection, enableOfflineQueue: false }, prefix: PREFIX });
  queue.on("error", () => {});

  const worker: Worker<Stored> = new Worker<Stored>(
    name,
    async (job: Job<Stored>, token?: string) => {
      const { payload, retries } = job.data;
      const next = await runJob(definition, payload, { id: job.id ?? "", retries });
      if (next.kind === "pause_all") {
        // Every worker of the queue, on every instance, waits; this job goes back to the front.
        await worker.rateLimit(next.ms);
        throw Worker.RateLimitError();
      }
      if (next.kind === "continue") {
        // Delayed until now: promoted at the back of the wait list, behind the kind's jobs already waiting.
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      if (next.kind === "retry") {
        await job.updateData({ payload, retries: retries + 1 });
        await job.moveToDelayed(Date.now() + next.afterMs, token);
        throw new DelayedError();
      }
    },
    {
      connection: { ...connection, maxRetriesPerRequest: null },
      prefix: PREFIX,
      concurrency: definition.concurrency,
      lockDuration: LOCK_MS,
      stalledInterval: STALLED_INTERVAL_MS,
      // A worker that died is never the job's fault.
      maxStalledCount: 1_000_000,
      autorun: false,
      // Not a limit (far above any real rate): it turns on the limiter that worker.rateLimit() pauses.
      limiter: { max: 100_000, duration: 1_000 },
    },
  );
  worker.on("error", () => {});
  worker.on("failed", (job, error) =>
    logEvent("error", "job_item_failed", { kind: definition.kind, item: job?.id, error: describeError(error) }),
  );
  // The cluster-wide limit: at most `concurrency` jobs of the kind run at once, whatever the number of instances.
  // It lives in Redis: set it again whenever the connection comes back (a Redis restarted empty forgot it).
  let limitTimer: NodeJS.Timeout | null = null;
  const setLimit = (): void => {
    if (limitTimer) clearTimeout(limitTimer);
    queue.setGlobalConcurrency(definition.concurrency).then(
      () => (limitTimer = null),
      () => (limitTimer = setTimeout(setLimit, 1_000).unref()),
    );
  };
  if (
    !(await queue.setGlobalConcurrency(definition.concurrency).then(
      () => true,
      () => false,
    ))
  )
    setLimit();
  cluster.redis?.on("ready", setLimit);
  void worker
    .run()
    .catch((error: unknown) =>
      logEvent("error", "job_worker_stopped", { kind: definition.kind, error: describeError(error) }),
    );

  let closed = false;
  return {
    queue,
    async close() {
      if (closed) return;
      closed = true;
      if (limitTimer) clearTimeout(limitTimer);
      cluster.redis?.off("ready", setLimit);
      // Let the running jobs finish (an upstream call each); whatever still runs then goes back to the queue.
      const finished = await Promise.race([worker.close().then(() => true), sleep(STOP_WAIT_MS).then(() => false)]);
      if (!finished) await worker.close(true).catch(() => {});
      await queue.close().catch(() => {});
    },
  };
}
