// The in-memory rate limiter and the purchase-check limits, without a server.
import { describe, expect, it } from "vitest";

import { checkPurchaseRateLimit, RateLimiter } from "@/lib/auth/rate-limit";

describe("RateLimiter", () => {
  it("allows `limit` hits per window, then says how long to wait; refused hits are not counted", () => {
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      expect(limiter.check("u", 1_000 + i)).toEqual({ allowed: true });
      limiter.record("u", 1_000 + i);
    }
    expect(limiter.check("u", 31_000)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(limiter.check("u", 60_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // The window started at the first hit (1000 ms): at 61 000 ms it is over.
    expect(limiter.check("u", 61_000)).toEqual({ allowed: true });
    expect(limiter.check("someone else", 31_000)).toEqual({ allowed: true });
  });

  it("keeps at most maxKeys keys, forgetting the least recently used", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 }, 3);
    for (const key of ["a", "b", "c"]) limiter.record(key, 0);
    limiter.record("a", 1); // a is now the most recent
    limiter.record("d", 2);
    expect(limiter.size).toBe(3);
    expect(limiter.check("b", 3).allowed).toBe(true); // forgotten
    expect(limiter.check("a", 3).allowed).toBe(false);
    expect(limiter.check("c", 3).allowed).toBe(false);
    expect(limiter.check("d", 3).allowed).toBe(false);
    for (let i = 0; i < 50_000; i++) limiter.record(`k${i}`, 10);
    expect(limiter.size).toBe(3);
  });

  it("purchase checks: the per-user and the per-address limits both apply; an unknown address shares one bucket", () => {
    const rules = { perUser: 2, perIp: 3 };
    const t = 5_000_000;
    expect(checkPurchaseRateLimit(rules, { userId: "u1", address: "10.0.0.1" }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u1", address: "10.0.0.2" }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u1", address: "10.0.0.3" }, t)).toMatchObject({ allowed: false, limitedBy: "user" });
    expect(checkPurchaseRateLimit(rules, { userId: "u2", address: null }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u3", address: null }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u4", address: null }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u5", address: null }, t)).toMatchObject({ allowed: false, limitedBy: "ip", retryAfterSeconds: 60 });
  });
});
