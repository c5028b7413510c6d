// A token's own limits: requests a minute and requests a calendar month (UTC), each counted once across every
// instance on the cluster's limiters (lib/cluster/limiter.ts: Redis when REDIS_URL is set, this process
// otherwise). No store read or write per request: the month's counter lives in the limiter, keyed by token and
// month, and is seeded from the usage rows (lib/tokens/usage.ts, the truth) when it starts afresh. Only requests
// let through count: one refused gives its point back. The request that uses the quota's last point sends
// token.quota_reached, once per token and month (the token_quota_reached row decides across instances).
import "server-only";

import type { RateLimiterAbstract } from "rate-limiter-flexible";

import { currentCluster, type Cluster } from "@/lib/cluster";
import { refusal, windowLimiter } from "@/lib/cluster/limiter";
import type { Db } from "@/lib/db";
import { emitEvent } from "@/lib/events";
import { describeError, logEvent } from "@/lib/log";
import { processSlot } from "@/lib/process-wide";

import { monthCounted } from "./usage";

/** A ceiling no token's limit reaches: the limiters count, and the token's own figure decides. */
const COUNT_CEILING = 2_000_000_000;
/**
 * How long a month's counter lives (its key names the month, so it never spills into the next). Under the 24.8
 * days a timer can wait (the in-memory limiter deletes keys by timer); a counter that ends before its month does
 * is seeded again from the store at its next request, like a new one.
 */
const MONTH_KEY_SECONDS = 20 * 86_400;

export interface TokenLimits {
  id: string;
  name: string;
  userId: string;
  rateLimitPerMinute: number | null;
  monthlyQuota: number | null;
}

export type TokenLimitsDecision =
  | { allowed: true; quota: { limit: number; remaining: number; resetsAt: string } | null }
  | { allowed: false; limit: "minute"; perMinute: number; retryAfterSeconds: number }
  | { allowed: false; limit: "month"; quota: number; resetsAt: string; retryAfterSeconds: number };

interface Limiters {
  cluster: Cluster;
  minute: RateLimiterAbstract;
  month: RateLimiterAbstract;
}

const limitersSlot = processSlot<Limiters>("tokenOwnLimiters");
/** Months this process already knows a token reached its quota in: no store write per refused request. */
const reachedSlot = processSlot<Set<string>>("tokenQuotaReached");

function limiters(cluster: Cluster): Limiters {
  const current = limitersSlot.get();
  if (current && current.cluster === cluster) return current;
  const created = {
    cluster,
    minute: windowLimiter(cluster, "token:minute", COUNT_CEILING, 60),
    month: windowLimiter(cluster, "token:month", COUNT_CEILING, MONTH_KEY_SECONDS),
  };
  limitersSlot.set(created);
  return created;
}

export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** The first moment of the next calendar month, UTC. */
export function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/**
 * Counts one request with `token` against its own limits (those it has), or refuses it. Either limit's point
 * is given back when the request is refused, so that only requests let through count.
 */
export async function checkTokenLimits(
  db: Db,
  token: TokenLimits,
  now = new Date(),
  cluster: Cluster = currentCluster(),
): Promise<TokenLimitsDecision> {
  if (token.rateLimitPerMinute === null && token.monthlyQuota === null) return { allowed: true, quota: null };
  const { minute, month } = limiters(cluster);
  if (token.rateLimitPerMinute !== null) {
    const res = await consume(minute, token.id);
    if (res.consumedPoints > token.rateLimitPerMinute) {
      await minute.reward(token.id, 1).catch(() => {});
      return {
        allowed: false,
        limit: "minute",
        perMinute: token.rateLimitPerMinute,
        retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      };
    }
  }
  if (token.monthlyQuota === null) return { allowed: true, quota: null };
  const monthName = monthOf(now);
  const key = `${token.id}:${monthName}`;
  const resets = nextMonthStart(now);
  let res = await consume(month, key);
  if (res.consumedPoints === 1) {
    // A counter started afresh (this month's first request, or a process without Redis that restarted): the
    // store's rows say what was used before.
    const before = await monthCounted(db, token.id, monthName);
    if (before > 0) res = await month.penalty(key, before);
  }
  const used = res.consumedPoints;
  if (used > token.monthlyQuota) {
    await month.reward(key, 1).catch(() => {});
    if (token.rateLimitPerMinute !== null) await minute.reward(token.id, 1).catch(() => {});
    await noteQuotaReached(db, token, monthName, now);
    return {
      allowed: false,
      limit: "month",
      quota: token.monthlyQuota,
      resetsAt: resets.toISOString(),
      retryAfterSeconds: Math.max(1, Math.ceil((resets.getTime() - now.getTime()) / 1000)),
    };
  }
  if (used === token.monthlyQuota) await noteQuotaReached(db, token, monthName, now);
  return {
    allowed: true,
    quota: { limit: token.monthlyQuota, remaining: token.monthlyQuota - used, resetsAt: resets.toISOString() },
  };
}

async function consume(limiter: RateLimiterAbstract, key: string) {
  try {
    return await limiter.consume(key, 1);
  } catch (rejection) {
    // Past the ceiling (never, in practice) still counts as a number; a failed store is thrown on.
    const refused = refusal(rejection);
    if (!refused) throw rejection;
    return refused;
  }
}

/** The first time a token reaches its quota in a month (across every instance): token.quota_reached, once. */
async function noteQuotaReached(db: Db, token: TokenLimits, month: string, now: Date): Promise<void> {
  let known = reachedSlot.get();
  if (!known) reachedSlot.set((known = new Set()));
  const key = `${token.id}:${month}`;
  if (known.has(key)) return;
  known.add(key);
  try {
    const inserted = await db
      .insertInto("token_quota_reached")
      .values({ token_id: token.id, month, reached_at: now.toISOString() })
      .onConflict((conflict) => conflict.columns(["token_id", "month"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
    await emitEvent({
      type: "token.quota_reached",
      data: {
        token: { id: token.id, name: token.name },
        user_id: token.userId,
        month,
        quota: token.monthlyQuota,
        resets_at: nextMonthStart(now).toISOString(),
      },
      occurredAt: now,
    });
  } catch (error) {
    known.delete(key);
    logEvent("error", "token_quota_event_failed", { token_id: token.id, error: describeError(error) });
  }
}
