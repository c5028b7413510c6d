// Two instances' policies (two Resilience objects, each with its own connections to one real Redis) in front of
// the sandbox: 100 identical concurrent reads over both make one upstream call, and so do reads whose first call
// outlasts the lock's life; a change through one is seen by
// the other at once; a breaker opened on one spares the upstream on the other; a 429's Retry-After holds both;
// with Redis gone, reads are still answered (the shared cache bypassed).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { redisCluster, type Cluster } from "@/lib/cluster";
import { isCircuitOpenError } from "@/lib/upstream/errors";
import { Resilience } from "@/lib/upstream/policy";
import { LOCK_MS } from "@/lib/upstream/policy/shared";
import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import type { TestSandbox } from "@/tests/support/sandbox";
import { REPORTS, reportPath, settings, upstreamCalls, upstreamErrorOf, withClients } from "@/tests/support/resilience";
import { until } from "@/tests/support/until";
import { startCanarySandbox } from "@/tests/support/sandbox";

let sandbox: TestSandbox;
let redis: TestRedis;
const clusters: Cluster[] = [];

/** Two instances: their own Resilience and Redis connections, one Redis. */
async function twoInstances(
  overrides: Parameters<typeof settings>[0] = {},
  clients: Parameters<typeof withClients>[2] = {},
) {
  const made = ["one", "two"].map((name) => {
    const cluster = redisCluster(redis.url, name);
    clusters.push(cluster);
    return {
      cluster,
      ...withClients(
        sandbox,
        new Resilience(settings(overrides), { now: Date.now, random: Math.random }, () => cluster),
        clients,
      ),
    };
  });
  await until(() => made.every(({ cluster }) => cluster.up()), "both instances connected");
  // Subscriptions are made on first use: use both, then wait until a message from one reaches the other.
  for (const each of made) await each.reports.listProjects({ per_page: 10 });
  let heard = false;
  made[1]!.cluster.subscribe("probe", () => (heard = true));
  await until(() => {
    made[0]!.cluster.publish("probe", {});
    return heard;
  }, "the bus carries messages");
  return made as [(typeof made)[0], (typeof made)[0]];
}

beforeAll(async () => {
  [sandbox, redis] = await Promise.all([startCanarySandbox(), startTestRedis()]);
});
afterAll(async () => {
  await Promise.all(clusters.map((cluster) => cluster.close()));
  await Promise.all([sandbox?.close(), redis?.stop()]);
});
beforeEach(async () => {
  await sandbox.reset();
  await redis.start();
  const flush = clusters.find((cluster) => cluster.up());
  await flush?.redis?.flushall();
});

describe("the policies shared through Redis", () => {
  it("100 identical concurrent reads over two instances: one upstream call", async () => {
    const [one, two] = await twoInstances();
    const reads = Array.from({ length: 100 }, (_, i) =>
      (i % 2 ? one : two).reports.listReports({ result: "good", per_page: 25 }),
    );
    const answers = await Promise.all(reads);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect((await upstreamCalls(sandbox, "GET", REPORTS)).length).toBe(1);
  });

  it("a first call slower than the lock's life (a loaded machine): the other instance waits for it, still one upstream call", async () => {
    const [one, two] = await twoInstances({}, { timeoutMs: LOCK_MS * 3 });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "latency", latencyMs: LOCK_MS + 1_000, times: 1 });
    const reads = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? one : two).reports.listReports({ result: "decent", per_page: 25 }),
    );
    const answers = await Promise.all(reads);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect((await upstreamCalls(sandbox, "GET", REPORTS)).length).toBe(1);
  });

  it("a change through one instance: the other's next read asks the upstream again", async () => {
    const [one, two] = await twoInstances();
    const before = await two.reports.getReport(3);
    expect((await one.reports.getReport(3)).privacy).toBe(before.privacy);
    const privacy = before.privacy === 0 ? 1 : 0;
    await one.reports.updateReport(3, { privacy });
    await until(
      async () => (await two.reports.getReport(3)).privacy === privacy,
      "the other instance sees the change",
      1_000,
    );
    expect((await upstreamCalls(sandbox, "GET", reportPath(3))).length).toBe(2);
  });

  it("a breaker opened on one instance spares the upstream on the other", async () => {
    const [one, two] = await twoInstances({ retries: 0, breaker: { failureThreshold: 2, openMs: 10_000 } });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 503 });
    for (let i = 0; i < 2; i++) await upstreamErrorOf(one.reports.listReports({ page: i + 10 }));
    expect(one.resilience.breakerStatus("reports").state).toBe("open");
    await until(() => two.resilience.breakerStatus("reports").state === "open", "the other breaker opens too");
    const calls = (await upstreamCalls(sandbox, "GET", REPORTS)).length;
    expect(isCircuitOpenError(await upstreamErrorOf(two.reports.listReports({ page: 99 })))).toBe(true);
    expect((await upstreamCalls(sandbox, "GET", REPORTS)).length).toBe(calls);
  });

  it("a 429's Retry-After told to one instance holds the other too", async () => {
    const [one, two] = await twoInstances({ retries: 0 });
    await sandbox.injectFault({
      method: "GET",
      path: REPORTS,
      kind: "status",
      status: 429,
      headers: { "Retry-After": "30" },
      times: 1,
    });
    expect(await upstreamErrorOf(one.reports.listReports({ page: 5 }))).toMatchObject({ kind: "rate_limited" });
    let error;
    await until(async () => {
      error = await upstreamErrorOf(two.reports.listReports({ page: 6 })).catch(() => null);
      return error !== null && error.kind === "rate_limited";
    }, "the other instance holds back");
    expect(Number(error!.retryAfter)).toBeGreaterThan(25);
    expect((await upstreamCalls(sandbox, "GET", REPORTS)).length).toBe(1);
  });

  it("Redis gone: reads are still answered, from the upstream", async () => {
    const [one] = await twoInstances();
    await redis.kill();
    await until(() => !one.cluster.up(), "the instance notices");
    const answer = await one.reports.listReports({ page: 2 });
    expect(answer.data.length).toBeGreaterThan(0);
    await one.reports.updateReport(4, { privacy: 1 }); // a change while Redis is away does not fail either
  });
});
