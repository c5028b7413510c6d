// A Redis for a vitest describe block, with "instances" on it (kept apart from ./redis.ts, which the benchmark
// scripts import outside vitest).
import { afterAll, beforeAll } from "vitest";

import { redisCluster, type Cluster } from "@/lib/cluster";

import { startTestRedis, type TestRedis } from "./redis";

/**
 * A Redis for the enclosing describe, with "instances" on it: redisCluster connections made by `instance(name)`,
 * all closed, and the Redis stopped, after the describe's tests.
 */
export function useTestRedis(): { redis: () => TestRedis; instance: (name: string) => Cluster } {
  let redis: TestRedis | undefined;
  const clusters: Cluster[] = [];
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await Promise.all(clusters.map((cluster) => cluster.close()));
    await redis?.stop();
  });
  const started = () => {
    if (!redis) throw new Error("useTestRedis: Redis has not started (use it inside a test)");
    return redis;
  };
  return {
    redis: started,
    instance(name) {
      const cluster = redisCluster(started().url, name);
      clusters.push(cluster);
      return cluster;
    },
  };
}
