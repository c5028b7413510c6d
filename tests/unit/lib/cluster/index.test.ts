// The cluster: without REDIS_URL a process alone; with it, a bus between instances (a message reaches the
// others, not its sender) that comes back by itself after Redis was killed and started again.
import { describe, expect, it } from "vitest";

import { localCluster, redisOptions, redisReachable } from "@/lib/cluster";
import { useTestRedis } from "@/tests/support/use-redis";
import { until } from "@/tests/support/until";

describe("localCluster", () => {
  it("is this process alone: no Redis, nothing published to anyone", async () => {
    const cluster = localCluster("solo");
    expect(cluster.redis).toBeNull();
    expect(cluster.up()).toBe(false);
    expect(cluster.connectionOptions()).toBeNull();
    expect(await redisReachable(cluster)).toBe(true);
  });
});

describe("redisOptions", () => {
  it("reads host, port, credentials, database and TLS from the URL", () => {
    expect(redisOptions("rediss://user:p%40ss@cache.example.com:6380/2")).toMatchObject({
      host: "cache.example.com",
      port: 6380,
      username: "user",
      password: "p@ss",
      db: 2,
      tls: {},
    });
    expect(redisOptions("redis://127.0.0.1")).toMatchObject({ port: 6379, db: 0, tls: undefined });
  });
});

describe("redisCluster", () => {
  const { redis, instance } = useTestRedis();

  it("carries a message to the other instances, and again after Redis came back", async () => {
    const a = instance("a");
    const b = instance("b");
    const atA: unknown[] = [];
    const atB: unknown[] = [];
    a.subscribe("test", (message) => atA.push(message.value));
    b.subscribe("test", (message) => atB.push(message.value));
    await until(() => a.up() && b.up(), "both connected");
    expect(await redisReachable(a)).toBe(true);
    // A subscription is made asynchronously: publish until the first message arrives.
    await until(() => {
      a.publish("test", { value: "hello" });
      return atB.length > 0;
    }, "b hears a");
    expect(atA).toEqual([]);

    await redis().kill();
    await until(() => !a.up(), "a notices Redis is gone");
    expect(await redisReachable(a)).toBe(false);
    a.publish("test", { value: "lost" }); // no error, no queue: nobody hears it

    await redis().start();
    await until(() => a.up() && b.up(), "both reconnected", 10_000);
    const before = atB.length;
    await until(
      () => {
        a.publish("test", { value: "again" });
        return atB.length > before;
      },
      "b hears a after the restart",
      10_000,
    );
    expect(atB).not.toContain("lost");
    expect(atB).toContain("again");
  });
});

describe("redisCluster closing", () => {
  const { redis, instance } = useTestRedis();

  it("closes without an unhandled rejection while its subscriber is subscribing again after Redis came back", async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", note);
    try {
      for (let round = 0; round < 5; round += 1) {
        const cluster = instance(`closing-${round}`);
        cluster.subscribe("test", () => {});
        await until(() => cluster.up(), "connected");
        await redis().kill();
        await until(() => !cluster.up(), "Redis is gone");
        // The moment the command connection is back, the subscriber is (or is about to be) sending SUBSCRIBE again.
        const back = new Promise<void>((resolve) => cluster.redis!.once("ready", () => resolve()));
        await redis().start();
        await back;
        await cluster.close();
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", note);
    }
  });
});
