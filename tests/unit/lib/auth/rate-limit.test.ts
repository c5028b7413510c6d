// The purchase-check limits: per user and per address, both apply, a refusal by the address is given back to the
// user's count; with Redis every instance counts in one window, and while Redis is away the insurance limiter
// answers (a real redis-server, killed and started again).
import { describe, expect, it } from "vitest";

import { checkPurchaseRateLimit } from "@/lib/auth/rate-limit";
import { localCluster } from "@/lib/cluster";
import { useTestRedis } from "@/tests/support/use-redis";
import { until } from "@/tests/support/until";

describe("checkPurchaseRateLimit in one process", () => {
  it("applies the per-user and the per-address limits; an unknown address shares one bucket", async () => {
    const cluster = localCluster("unit");
    const rules = { perUser: 2, perIp: 3 };
    expect((await checkPurchaseRateLimit(rules, { userId: "u1", address: "10.0.0.1" }, cluster)).allowed).toBe(true);
    expect((await checkPurchaseRateLimit(rules, { userId: "u1", address: "10.0.0.2" }, cluster)).allowed).toBe(true);
    expect(await checkPurchaseRateLimit(rules, { userId: "u1", address: "10.0.0.3" }, cluster)).toMatchObject({
      allowed: false,
      limitedBy: "user",
    });
    expect((await checkPurchaseRateLimit(rules, { userId: "u2", address: null }, cluster)).allowed).toBe(true);
    expect((await checkPurchaseRateLimit(rules, { userId: "u3", address: null }, cluster)).allowed).toBe(true);
    expect((await checkPurchaseRateLimit(rules, { userId: "u4", address: null }, cluster)).allowed).toBe(true);
    const refused = await checkPurchaseRateLimit(rules, { userId: "u5", address: null }, cluster);
    expect(refused).toMatchObject({ allowed: false, limitedBy: "ip" });
    expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    // u5's refused check was given back: from another address it still has both of its checks.
    expect((await checkPurchaseRateLimit(rules, { userId: "u5", address: "10.9.9.9" }, cluster)).allowed).toBe(true);
    expect((await checkPurchaseRateLimit(rules, { userId: "u5", address: "10.9.9.9" }, cluster)).allowed).toBe(true);
    expect((await checkPurchaseRateLimit(rules, { userId: "u5", address: "10.9.9.9" }, cluster)).allowed).toBe(false);
  });
});

describe("checkPurchaseRateLimit on Redis", () => {
  const { redis, instance } = useTestRedis();

  it("counts once across instances, and falls back to the insurance limiter while Redis is away", async () => {
    const a = instance("a");
    const b = instance("b");
    await until(() => a.up() && b.up(), "both connected");
    const rules = { perUser: 4, perIp: 100 };
    const results = [];
    for (let i = 0; i < 8; i++)
      results.push(
        (await checkPurchaseRateLimit(rules, { userId: "shared", address: "10.0.0.1" }, i % 2 ? a : b)).allowed,
      );
    expect(results.filter(Boolean)).toHaveLength(4);

    await redis().kill();
    await until(() => !a.up(), "a notices Redis is gone");
    // The insurance limiter: this instance's own count, the limit as written.
    const offline = [];
    for (let i = 0; i < 6; i++)
      offline.push((await checkPurchaseRateLimit(rules, { userId: "offline", address: "10.0.0.2" }, a)).allowed);
    expect(offline).toEqual([true, true, true, true, false, false]);

    await redis().start();
    await until(() => a.up() && b.up(), "both reconnected", 10_000);
    expect((await checkPurchaseRateLimit(rules, { userId: "after", address: "10.0.0.3" }, b)).allowed).toBe(true);
  });
});
