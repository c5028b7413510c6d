// The job system's one suite, run against each provider: the store's (on SQLite, and on PostgreSQL) and BullMQ's
// (on a real redis-server). Each proves the same: an id triggered twice runs once, and a job waits for its time;
// a retry runs again after its backoff, its retries counted, and so does a handler that threw; a pause (429)
// holds the kind on every instance and the job runs again after it, while another kind goes on; kinds are taken
// in turn, so a long queue of one never holds up another; a job that continues (done a slice at a time) runs again
// behind the jobs of its kind already due; and a job whose process was killed (SIGKILL, its lease or lock left to
// lapse) runs again in another process.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

import { localCluster, redisCluster } from "@/lib/cluster";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";
import { defineJob, startJobs, trigger, type JobOutcome, type JobProvider } from "@/lib/jobs";
import { LOCK_MS, STALLED_INTERVAL_MS, startBullJobs } from "@/lib/jobs/bullmq";
import type { JobContext } from "@/lib/jobs/define";
import type { AnyJobDefinition } from "@/lib/jobs/run";
import { startStoreJobs } from "@/lib/jobs/store";

import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";
import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import { until } from "@/tests/support/until";

/** A killed process's store lease lapses after this (the child's, and the instances' here). */
const LEASE_MS = 2_000;

interface Backend {
  name: string;
  /** Opens what the provider works on; `url` is what the child process is given. */
  open(): Promise<{ url: string; close(): Promise<void> }>;
  /** One instance: a provider running `definitions`. */
  instance(
    url: string,
    name: string,
    definitions: AnyJobDefinition[],
  ): Promise<JobProvider & { close(): Promise<void> }>;
  child: "store" | "bullmq";
  /** How long a killed process's jobs may take to run again. */
  takeoverMs: number;
}

const stores: Store[] = [];
async function storeInstance(url: string, definitions: AnyJobDefinition[]) {
  const store = await openDb(parseDatabaseUrl(url));
  stores.push(store);
  const jobs = startStoreJobs(async () => store.db, definitions, { leaseMs: LEASE_MS });
  return Object.assign(jobs, { close: () => jobs.stop() });
}

let redis: TestRedis | undefined;
let postgres: TestPostgres | undefined;

const backends: Backend[] = [
  {
    name: "the store on SQLite",
    async open() {
      const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-jobs-"));
      return { url: path.join(dir, "jobs.db"), close: () => rm(dir, { recursive: true, force: true }) };
    },
    instance: (url, _name, definitions) => storeInstance(url, definitions),
    child: "store",
    takeoverMs: LEASE_MS + 5_000,
  },
  {
    name: "the store on PostgreSQL",
    async open() {
      postgres ??= await startTestPostgres();
      return { url: await postgres.createDatabase(), close: async () => {} };
    },
    instance: (url, _name, definitions) => storeInstance(url, definitions),
    child: "store",
    takeoverMs: LEASE_MS + 5_000,
  },
  {
    name: "BullMQ on Redis",
    async open() {
      redis ??= await startTestRedis();
      return { url: redis.url, close: async () => {} };
    },
    async instance(url, name, definitions) {
      const cluster = redisCluster(url, name);
      const jobs = await startBullJobs(cluster, definitions);
      return Object.assign(jobs, {
        close: async () => {
          await jobs.stop();
          await cluster.close();
        },
      });
    },
    child: "bullmq",
    takeoverMs: LOCK_MS + 3 * STALLED_INTERVAL_MS,
  },
];

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  for (const store of stores.splice(0)) await store.close();
});
afterAll(async () => {
  await redis?.stop();
  await postgres?.stop();
});

const numbered = z.object({ n: z.number() });
let kinds = 0;
/** A kind of its own for each test (BullMQ's queues outlive a test). */
function kind(
  handle: (payload: { n: number }, context: JobContext) => Promise<JobOutcome>,
  concurrency = 2,
): AnyJobDefinition {
  kinds += 1;
  return defineJob({ kind: `unit-${kinds}-${Date.now()}`, payload: numbered, concurrency, handle });
}

describe.each(backends)("jobs on $name", (backend) => {
  let url: string;
  let closeBackend: () => Promise<void>;
  beforeAll(async () => {
    ({ url, close: closeBackend } = await backend.open());
  }, 60_000);
  afterAll(async () => closeBackend?.());

  async function instance(name: string, definitions: AnyJobDefinition[]) {
    const jobs = await backend.instance(url, name, definitions);
    closers.push(() => jobs.close());
    return jobs;
  }

  it("runs an id triggered twice once, and a job not before its time", async () => {
    const runs: Array<{ n: number; at: number }> = [];
    const counted = kind(async ({ n }) => {
      runs.push({ n, at: Date.now() });
      return { kind: "done" };
    });
    const jobs = await instance("a", [counted]);
    const t0 = Date.now();
    await jobs.trigger(counted.kind, { n: 1 }, { id: "one" });
    await jobs.trigger(counted.kind, { n: 1 }, { id: "one" });
    await jobs.trigger(counted.kind, { n: 2 }, { id: "two", runAt: new Date(t0 + 700) });
    await until(() => runs.some((run) => run.n === 2), "the later job runs");
    await until(async () => (await jobs.waiting(counted.kind)) === 0, "nothing waits");
    expect(runs.filter((run) => run.n === 1)).toHaveLength(1);
    expect(runs.find((run) => run.n === 2)!.at - t0).toBeGreaterThanOrEqual(650);
  });

  it("runs a job again after the backoff it asked for, counting its retries; a handler that threw is retried too", async () => {
    const seen: Array<{ retries: number; at: number }> = [];
    const retried = kind(async (_payload, { retries }) => {
      seen.push({ retries, at: Date.now() });
      return retries < 2 ? { kind: "retry", afterMs: 300 } : { kind: "done" };
    });
    const thrown: number[] = [];
    const throwing = kind(async (_payload, { retries }) => {
      thrown.push(retries);
      if (retries === 0) throw new Error("a transient failure");
      return { kind: "done" };
    });
    const jobs = await instance("a", [retried, throwing]);
    await jobs.trigger(retried.kind, { n: 1 }, { id: "r" });
    await jobs.trigger(throwing.kind, { n: 1 }, { id: "t" });
    await until(() => seen.length === 3 && thrown.length === 2, "both jobs end");
    expect(seen.map((run) => run.retries)).toEqual([0, 1, 2]);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(250);
    expect(thrown).toEqual([0, 1]);
  });

  it("holds the kind on every instance during a pause, runs the job again after it, and lets another kind go on", async () => {
    const starts: Array<{ n: number; at: number }> = [];
    let pausedAt = 0;
    const limited = kind(async ({ n }) => {
      starts.push({ n, at: Date.now() });
      if (n === 1 && pausedAt === 0) {
        pausedAt = Date.now();
        return { kind: "pause_all", ms: 1_000 };
      }
      return { kind: "done" };
    });
    const other: number[] = [];
    const free = kind(async ({ n }) => {
      other.push(n);
      return { kind: "done" };
    });
    const one = await instance("one", [limited, free]);
    await instance("two", [limited, free]);
    await one.trigger(limited.kind, { n: 1 }, { id: "p1" });
    await until(() => pausedAt > 0, "the pause");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await one.trigger(limited.kind, { n: 2 }, { id: "p2" });
    await one.trigger(free.kind, { n: 1 }, { id: "f1" });
    await until(() => other.length === 1, "the other kind runs during the pause", 900);
    await until(() => starts.length === 3, "both jobs run after the pause");
    for (const start of starts.slice(1)) expect(start.at - pausedAt).toBeGreaterThanOrEqual(950);
    expect(starts.filter((start) => start.n === 1)).toHaveLength(2);
  });

  it("takes the kinds in turn: a long queue of one kind never holds up another", async () => {
    let bigDone = 0;
    const big = kind(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      bigDone += 1;
      return { kind: "done" };
    }, 1);
    let smallRanAfter = -1;
    const small = kind(async () => {
      smallRanAfter = bigDone;
      return { kind: "done" };
    }, 1);
    const jobs = await instance("a", [big, small]);
    for (let n = 0; n < 20; n += 1) await jobs.trigger(big.kind, { n }, { id: `big-${n}` });
    await jobs.trigger(small.kind, { n: 0 }, { id: "small" });
    await until(() => smallRanAfter >= 0, "the small kind's job runs");
    expect(smallRanAfter).toBeLessThan(5);
    await until(() => bigDone === 20, "the big kind's jobs all run");
  });

  it("runs a job that continues again soon, behind the jobs of its kind already due, its retries not counted", async () => {
    const order: string[] = [];
    const seen: number[] = [];
    let slices = 0;
    let letGo: () => void = () => {};
    const shortsAdded = new Promise<void>((resolve) => (letGo = resolve));
    const sliced = kind(async ({ n }, { retries }) => {
      order.push(n === 0 ? `long-${slices}` : `short-${n}`);
      if (n !== 0) return { kind: "done" };
      seen.push(retries);
      // The first slice runs until the short jobs are added.
      if (slices === 0) await shortsAdded;
      slices += 1;
      return slices < 3 ? { kind: "continue" } : { kind: "done" };
    }, 1);
    const jobs = await instance("a", [sliced]);
    await jobs.trigger(sliced.kind, { n: 0 }, { id: "long" });
    await until(() => order.length > 0, "the long job's first slice");
    await jobs.trigger(sliced.kind, { n: 1 }, { id: "short-1" });
    await jobs.trigger(sliced.kind, { n: 2 }, { id: "short-2" });
    letGo();
    await until(() => slices === 3 && order.length === 5, "every job ends");
    await until(async () => (await jobs.waiting(sliced.kind)) === 0, "nothing waits");
    // The short jobs, due while the first slice ran, go before the long job's later slices.
    expect(order.indexOf("short-1")).toBeLessThan(order.indexOf("long-2"));
    expect(order.indexOf("short-2")).toBeLessThan(order.indexOf("long-2"));
    expect(seen).toEqual([0, 0, 0]);
  });

  it("runs a job whose process was killed (SIGKILL) again in another", async () => {
    const runs: number[] = [];
    const survived = kind(async ({ n }) => {
      runs.push(n);
      return { kind: "done" };
    });
    // node itself runs the child (tsx as a loader, not its CLI, which would run it in a grandchild SIGKILL misses).
    const child = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "tests/support/jobs-child.ts",
        backend.child,
        url,
        survived.kind,
        String(LEASE_MS),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    closers.push(async () => {
      child.kill("SIGKILL");
    });
    await until(() => output.includes("taken"), "the child takes the job it added", 30_000);
    child.kill("SIGKILL");
    const survivor = await instance("survivor", [survived]);
    await until(() => runs.length === 1, "the survivor runs the killed process's job", backend.takeoverMs);
    expect(runs).toEqual([1]);
    expect(await survivor.waiting(survived.kind)).toBe(0);
  }, 60_000);
});

describe("trigger", () => {
  it("adds a job of a kind the process started, its payload checked; a kind not started is refused", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-jobs-"));
    const store = await openDb(parseDatabaseUrl(path.join(dir, "jobs.db")));
    const seen: number[] = [];
    const started = kind(async ({ n }) => {
      seen.push(n);
      return { kind: "done" };
    });
    const jobs = await startJobs([started], { cluster: localCluster("t"), db: async () => store.db });
    try {
      expect(jobs.runsOn).toBe("process");
      await trigger(started, { n: 7 }, { id: "seven" });
      await until(() => seen.includes(7), "the job runs");
      await expect(trigger(started, { n: "seven" } as unknown as { n: number }, { id: "x" })).rejects.toThrow();
      await expect(
        trigger(
          kind(async () => ({ kind: "done" })),
          { n: 1 },
          { id: "y" },
        ),
      ).rejects.toThrow(/were not started/);
    } finally {
      await jobs.stop();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
