// Bulk checks on the job system's BullMQ provider (a real redis-server), as two instances would run them: each with
// its own Redis connections and worker, one store, the sandbox's item service. Every code is checked and written
// once, at most 3 checks run at once across both (one lane at a time, a batch of 3), both instances take part, and
// jobs the store still has pending are queued again by the sweep (a Redis that lost its data loses nothing); the
// finished job is told of once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { redisCluster } from "@/lib/cluster";
import { setEventSink, type PortalEvent } from "@/lib/events";
import type { JobProvider } from "@/lib/jobs";
import { startBullJobs } from "@/lib/jobs/bullmq";
import { createBulkJob } from "@/lib/purchases/bulk/jobs";
import { bulkCheckJob, laneId } from "@/lib/purchases/bulk/lane";
import { sweepBulkJobs } from "@/lib/purchases/bulk/queue";
import { findBulkJob } from "@/lib/purchases/bulk/summaries";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { createItemsClient, type ItemsClient } from "@/lib/upstream/items";
import type { Store } from "@/lib/db";

import { CANARY } from "@/tests/support/canary";
import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { sqliteBackend } from "@/tests/support/store-backends";
import { until } from "@/tests/support/until";

const KEY = "bulk-queue-test-key-0123456789abcdef";
const ALICE = { id: "u-alice", email: "alice@example.com" };
const code = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

let redis: TestRedis;
let sandbox: TestSandbox;
let store: Store;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  [redis, sandbox, store] = await Promise.all([
    startTestRedis(),
    startTestSandbox({ extraKeys: { items: { [CANARY.items]: "main" } } }),
    sqliteBackend.open(),
  ]);
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await Promise.all([redis?.stop(), sandbox?.close(), store?.close()]);
});

/** The item client, counting the checks in flight and which instance made each. */
function countingItems(
  name: string,
  seen: { inFlight: number; most: number; by: Record<string, number> },
): ItemsClient {
  const items = createItemsClient(
    { baseUrl: sandbox.itemsBaseUrl, apiKey: CANARY.items, keyLocation: { kind: "query-and-form" } },
    { timeoutMs: 5000 },
  );
  return new Proxy(items, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        seen.inFlight += 1;
        seen.most = Math.max(seen.most, seen.inFlight);
        seen.by[name] = (seen.by[name] ?? 0) + 1;
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          seen.inFlight -= 1;
        }
      };
    },
  });
}

async function instance(name: string, seen: Parameters<typeof countingItems>[1]): Promise<JobProvider> {
  const cluster = redisCluster(redis.url, name);
  const items = countingItems(name, seen);
  const jobs = await startBullJobs(cluster, [
    bulkCheckJob({ db: async () => store.db, hashKey: () => KEY, items: async () => items }),
  ]);
  closers.push(async () => {
    await jobs.stop();
    await cluster.close();
  });
  return jobs;
}

const queueOn = (jobs: JobProvider) => (jobId: string) =>
  jobs.trigger("bulk-check", { job: jobId }, { id: laneId(jobId) });

describe("bulk checks on BullMQ", () => {
  it("two instances check a 60-code job: every code once, at most 3 at once, both at work; a sweep requeues what is pending", async () => {
    await sandbox.injectFault({
      method: "POST",
      path: "/market/api/purchases/validation",
      kind: "latency",
      latencyMs: 40,
    });
    const events: PortalEvent[] = [];
    setEventSink("test", async (event) => void events.push(event));
    closers.push(async () => setEventSink("test", null));
    const seen = { inFlight: 0, most: 0, by: {} as Record<string, number> };
    const [one, two] = [await instance("one", seen), await instance("two", seen)];
    const rawCodes = [FIXED_PURCHASE_CODES.active, ...Array.from({ length: 59 }, (_, i) => code(i + 1))];
    const created = await createBulkJob(store.db, KEY, { user: ALICE, rawCodes, limitPerHour: 1000 });
    if (!created.ok) throw new Error("refused");
    await queueOn(one)(created.id);
    await until(
      async () => (await findBulkJob(store.db, KEY, created.id, { userId: null }))?.status === "done",
      "the job is done",
    );

    const job = await findBulkJob(store.db, KEY, created.id, { userId: null });
    expect(job).toMatchObject({ status: "done", total: 60, valid: 1, invalid: 59, failed: 0 });
    const validations = (await sandbox.requests()).filter((request) => request.path.endsWith("/purchases/validation"));
    expect(validations).toHaveLength(60);
    const history = await store.db.selectFrom("purchase_checks").select("bulk_job_id").execute();
    expect(history).toHaveLength(60);
    expect(seen.most).toBeLessThanOrEqual(3);
    expect(Object.keys(seen.by).sort()).toEqual(["one", "two"]);
    // The finished job is told of once (a webhook's bulk_job.finished), by whichever instance finished it.
    const finished = () => events.filter((event) => event.type === "bulk_job.finished");
    await until(async () => finished().length > 0, "the bulk_job.finished event");
    expect(finished()).toHaveLength(1);
    expect(finished()[0]!.data.job).toMatchObject({ id: created.id, status: "done", total: 60, valid: 1, invalid: 59 });

    // A job whose items Redis lost (restarted empty): the sweep queues its pending codes from the store.
    const second = await createBulkJob(store.db, KEY, {
      user: ALICE,
      rawCodes: [code(100), code(101)],
      limitPerHour: 1000,
    });
    if (!second.ok) throw new Error("refused");
    await sweepBulkJobs(store.db, queueOn(two));
    await until(
      async () => (await findBulkJob(store.db, KEY, second.id, { userId: null }))?.status === "done",
      "the swept job is done",
    );
    await until(async () => (await two.waiting("bulk-check")) === 0, "nothing waits");
  });
});
