// Rate limiters through rate-limiter-flexible, counted in Redis when the cluster has it (every instance counts the
// same window) and in this process otherwise. While Redis is away a limiter falls back to its in-memory insurance
// limiter (per instance, the limit as written: a short outage errs on the side of serving, never on refusing
// everyone). The purchase and token limits (lib/auth/rate-limit.ts) and the per-area budgets of background work
// (lib/jobs/budget.ts) are built on it.
import "server-only";

import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from "rate-limiter-flexible";

import { KEY_PREFIX, type Cluster } from "./index";

/** A limiter of `points` per window of `seconds` (whole seconds: Redis counts no finer). */
export function windowLimiter(cluster: Cluster, name: string, points: number, seconds: number): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ points, duration: seconds, keyPrefix: name });
  if (!cluster.redis) return memory;
  return new RateLimiterRedis({
    storeClient: cluster.redis,
    points,
    duration: seconds,
    keyPrefix: `${KEY_PREFIX}limit:${name}`,
    // Redis away: ask the insurance at once rather than wait for a command to time out.
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

/** A refusal carries msBeforeNext; anything else a limiter rejects with is a failure of its store. */
export function refusal(rejection: unknown): RateLimiterRes | null {
  const res = rejection as Partial<RateLimiterRes> | null;
  return res && typeof res.msBeforeNext === "number" ? (res as RateLimiterRes) : null;
}
