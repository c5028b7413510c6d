// The work queue on a real redis-server: an item added twice is one item; a handler that says "pause" holds
// every worker of the kind and the item runs again; an item whose worker was killed mid-run (SIGKILL of its
// process, its lock left to lapse) is run again by another worker and never failed for it.
import { spawn } from "node:child_process";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { redisCluster, type Cluster } from "@/lib/cluster";
import { LOCK_MS, STALLED_INTERVAL_MS, startWorkQueue, type ItemOutcome, type WorkQueue } from "@/lib/jobs";

import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import { until } from "@/tests/support/until";

let redis: TestRedis;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await redis?.stop();
});

async function worker<T>(
  kind: string,
  name: string,
  handle: (data: T) => Promise<ItemOutcome>,
): Promise<{ queue: WorkQueue<T>; cluster: Cluster }> {
  const cluster = redisCluster(redis.url, name);
  const queue = await startWorkQueue<T>(cluster, { kind, concurrency: 2, handle });
  closers.push(async () => {
    await queue.close();
    await cluster.close();
  });
  return { queue, cluster };
}

describe("startWorkQueue", () => {
  it("runs an item added twice under one id once; a pause holds the kind and the item runs again", async () => {
    const runs: string[] = [];
    let paused = false;
    const { queue } = await worker<{ n: number }>("unit-a", "a", async ({ n }) => {
      runs.push(`n${n}`);
      if (n === 2 && !paused) {
        paused = true;
        return { kind: "pause_all", ms: 300 };
      }
      return { kind: "done" };
    });
    await queue.add([{ id: "one", data: { n: 1 } }]);
    await queue.add([
      { id: "one", data: { n: 1 } },
      { id: "two", data: { n: 2 } },
    ]);
    await until(() => runs.filter((run) => run === "n2").length === 2, "item two runs again after its pause");
    await until(async () => (await queue.waiting()) === 0, "nothing waits");
    expect(runs.filter((run) => run === "n1")).toHaveLength(1);
  });

  it("an item whose worker was killed (SIGKILL) is run again by another, and never failed for it", async () => {
    // node itself runs the worker (tsx as a loader, not its CLI, which would run it in a grandchild SIGKILL misses).
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "tests/support/work-queue-child.ts", redis.url, "unit-b"],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    closers.push(async () => {
      child.kill("SIGKILL");
    });
    const finished: number[] = [];
    const survivor = await worker<{ n: number }>("unit-b", "survivor", async ({ n }) => {
      finished.push(n);
      return { kind: "done" };
    });
    // Wait until the child's worker runs, then give it the item (the survivor may take others meanwhile).
    for (let n = 1; !output.includes("taken"); n++) {
      await survivor.queue.add([{ id: `item-${n}`, data: { n } }]);
      await until(() => output.includes("taken") || finished.includes(n), "someone takes the item", 30_000);
    }
    const taken = finished.length + 1;
    child.kill("SIGKILL");
    const t0 = Date.now();
    await until(
      () => finished.length === taken,
      "the survivor runs the killed worker's item",
      LOCK_MS + 3 * STALLED_INTERVAL_MS,
    );
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(await survivor.queue.waiting()).toBe(0);
  }, 60_000);
});
