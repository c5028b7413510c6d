// The per-minute limits of purchase checks (per user, per client address), through rate-limiter-flexible:
// counted in Redis when REDIS_URL is set, so that every instance counts the same window, and in this process
// otherwise. While Redis is away each limiter falls back to its in-memory insurance limiter (per instance, the
// limit as written: a short outage errs on the side of serving, never on refusing everyone). Fixed windows that
// start at a key's first hit; Retry-After is the window's end.
//
// (The sign-in throttle and the bulk allowance are counted in the store, where they are already shared by
// every instance and kept as a record: lib/auth/throttle.ts and lib/purchases/bulk/allowance.ts.)
import "server-only";

import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from "rate-limiter-flexible";

import { currentCluster, KEY_PREFIX, type Cluster } from "@/lib/cluster";
import type { PurchaseRateLimits } from "@/lib/config/purchases";
import { processSlot } from "@/lib/process-wide";

import { addressKey } from "./address";

/**
 * The client address bucket when Gatehouse cannot know the address (no TRUST_PROXY): every such request counts
 * in one shared bucket, so the per-address limit still caps the whole instance and no header can dodge it.
 */
export const UNKNOWN_ADDRESS_BUCKET = "direct";

const WINDOW_SECONDS = 60;

/** A limiter of `points` a minute: in Redis (with an in-memory insurance) when the cluster has Redis. */
export function minuteLimiter(cluster: Cluster, name: string, points: number): RateLimiterAbstract {
  return windowLimiter(cluster, name, points, WINDOW_SECONDS);
}

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

interface PurchaseLimiters {
  rules: PurchaseRateLimits;
  cluster: Cluster;
  perUser: RateLimiterAbstract;
  perIp: RateLimiterAbstract;
}

// Every route counts in the same windows; new rules or a new cluster make new limiters.
const purchaseLimitersSlot = processSlot<PurchaseLimiters>("purchaseRateLimiters");

function purchaseLimiters(rules: PurchaseRateLimits, cluster: Cluster): PurchaseLimiters {
  const current = purchaseLimitersSlot.get();
  if (
    current &&
    current.cluster === cluster &&
    current.rules.perUser === rules.perUser &&
    current.rules.perIp === rules.perIp
  )
    return current;
  const created = {
    rules,
    cluster,
    perUser: minuteLimiter(cluster, "purchase:user", rules.perUser),
    perIp: minuteLimiter(cluster, "purchase:ip", rules.perIp),
  };
  purchaseLimitersSlot.set(created);
  return created;
}

/** A refusal carries msBeforeNext; anything else a limiter rejects with is a failure of its store. */
export function refusal(rejection: unknown): RateLimiterRes | null {
  const res = rejection as Partial<RateLimiterRes> | null;
  return res && typeof res.msBeforeNext === "number" ? (res as RateLimiterRes) : null;
}

const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

export type PurchaseLimitDecision =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; limitedBy: "user" | "ip" };

/**
 * One purchase validation by `userId` from `address` (null: unknown). Refused when either limit is reached; a
 * check the address limit refuses is given back to the user's count, so only checks that happen count.
 */
export async function checkPurchaseRateLimit(
  rules: PurchaseRateLimits,
  { userId, address }: { userId: string; address: string | null },
  cluster: Cluster = currentCluster(),
): Promise<PurchaseLimitDecision> {
  const limiters = purchaseLimiters(rules, cluster);
  const ipKey = addressKey(address) ?? UNKNOWN_ADDRESS_BUCKET;
  try {
    await limiters.perUser.consume(userId);
  } catch (rejection) {
    const refused = refusal(rejection);
    if (!refused) throw rejection;
    return { allowed: false, retryAfterSeconds: seconds(refused), limitedBy: "user" };
  }
  try {
    await limiters.perIp.consume(ipKey);
  } catch (rejection) {
    await limiters.perUser.reward(userId).catch(() => {});
    const refused = refusal(rejection);
    if (!refused) throw rejection;
    return { allowed: false, retryAfterSeconds: seconds(refused), limitedBy: "ip" };
  }
  return { allowed: true };
}

// Requests with API tokens, per owner (all his tokens together: making more tokens buys no more requests), apart
// from any user's or address's limits: a leaked or runaway script is held to it, counted once across every
// instance like the purchase limits.
const tokenLimiterSlot = processSlot<{ perMinute: number; cluster: Cluster; limiter: RateLimiterAbstract }>(
  "tokenRateLimiter",
);

export type TokenLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One request with a token of `ownerId`, at most `perMinute` a minute for all of them (TOKEN_RATE_LIMIT_PER_MINUTE). */
export async function checkTokenRateLimit(
  perMinute: number,
  ownerId: string,
  cluster: Cluster = currentCluster(),
): Promise<TokenLimitDecision> {
  let slot = tokenLimiterSlot.get();
  if (!slot || slot.perMinute !== perMinute || slot.cluster !== cluster) {
    slot = { perMinute, cluster, limiter: minuteLimiter(cluster, "token-owner", perMinute) };
    tokenLimiterSlot.set(slot);
  }
  try {
    await slot.limiter.consume(ownerId);
    return { allowed: true };
  } catch (rejection) {
    const refused = refusal(rejection);
    if (!refused) throw rejection;
    return { allowed: false, retryAfterSeconds: seconds(refused) };
  }
}
