// The per-minute limits of purchase checks (per user, per client address) and of API tokens, on the cluster's
// limiters (lib/cluster/limiter.ts: counted in Redis when REDIS_URL is set, so that every instance counts the same
// window, and in this process otherwise). Fixed windows that start at a key's first hit; Retry-After is the
// window's end.
//
// (The sign-in throttle and the bulk allowance are counted in the store, where they are already shared by
// every instance and kept as a record: lib/auth/throttle.ts and lib/purchases/bulk/allowance.ts.)
import "server-only";

import type { RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";

import { currentCluster, type Cluster } from "@/lib/cluster";
import { refusal, windowLimiter } from "@/lib/cluster/limiter";
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
function minuteLimiter(cluster: Cluster, name: string, points: number): RateLimiterAbstract {
  return windowLimiter(cluster, name, points, WINDOW_SECONDS);
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

const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

export type PurchaseLimitDecision =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; limitedBy: "user" | "ip" };

/**
 * `checks` purchase validations (one by default; a helpdesk lookup's codes) by `userId` from `address` (null:
 * unknown). Refused when either limit is reached; checks the address limit refuses are given back to the user's
 * count, so only checks that happen count.
 */
export async function checkPurchaseRateLimit(
  rules: PurchaseRateLimits,
  { userId, address, checks = 1 }: { userId: string; address: string | null; checks?: number },
  cluster: Cluster = currentCluster(),
): Promise<PurchaseLimitDecision> {
  const limiters = purchaseLimiters(rules, cluster);
  const ipKey = addressKey(address) ?? UNKNOWN_ADDRESS_BUCKET;
  try {
    await limiters.perUser.consume(userId, checks);
  } catch (rejection) {
    const refused = refusal(rejection);
    if (!refused) throw rejection;
    return { allowed: false, retryAfterSeconds: seconds(refused), limitedBy: "user" };
  }
  try {
    await limiters.perIp.consume(ipKey, checks);
  } catch (rejection) {
    await limiters.perUser.reward(userId, checks).catch(() => {});
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
