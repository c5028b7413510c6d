// What holds the licence API under a crowd of installed copies: requests a minute per purchase code, per client
// address and per item (on the cluster's limiters: counted in Redis across every instance when REDIS_URL is set),
// and the API's share of the item API's budget, taken only when the item API is about to be asked (an answer from
// the cache, or from another instance asking the same code, costs nothing).
import "server-only";

import type { RateLimiterAbstract } from "rate-limiter-flexible";

import { addressKey } from "@/lib/auth/address";
import { UNKNOWN_ADDRESS_BUCKET } from "@/lib/auth/rate-limit";
import { currentCluster, type Cluster } from "@/lib/cluster";
import { refusal, windowLimiter } from "@/lib/cluster/limiter";
import type { LicenceLimits } from "@/lib/config/purchases";
import { areaBudget, backgroundCallsPerMinute, limiterBudget, type AreaBudget } from "@/lib/jobs/budget";
import { processSlot } from "@/lib/process-wide";

interface Limiters {
  limits: LicenceLimits;
  cluster: Cluster;
  perCode: RateLimiterAbstract;
  perIp: RateLimiterAbstract;
  perItem: RateLimiterAbstract;
}

const slot = processSlot<Limiters>("licences.limiters");

function limiters(limits: LicenceLimits, cluster: Cluster): Limiters {
  const current = slot.get();
  if (
    current?.cluster === cluster &&
    current.limits.perCode === limits.perCode &&
    current.limits.perIp === limits.perIp &&
    current.limits.perItem === limits.perItem
  )
    return current;
  const made = {
    limits,
    cluster,
    perCode: windowLimiter(cluster, "licence:code", limits.perCode, 60),
    perIp: windowLimiter(cluster, "licence:ip", limits.perIp, 60),
    perItem: windowLimiter(cluster, "licence:item", limits.perItem, 60),
  };
  slot.set(made);
  return made;
}

export type LicenceLimitDecision =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; limitedBy: "code" | "address" | "item" };

/** One request of the licence API: refused when the address, the item or the code has had its minute's share. */
export async function takeLicenceRequest(
  limits: LicenceLimits,
  { codeHash, itemId, address }: { codeHash: string; itemId: number; address: string | null },
  cluster: Cluster = currentCluster(),
): Promise<LicenceLimitDecision> {
  const { perCode, perIp, perItem } = limiters(limits, cluster);
  const checks = [
    [perIp, addressKey(address) ?? UNKNOWN_ADDRESS_BUCKET, "address"],
    [perItem, String(itemId), "item"],
    [perCode, codeHash, "code"],
  ] as const;
  for (const [limiter, key, limitedBy] of checks) {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      const refused = refusal(rejection);
      if (!refused) throw rejection;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refused.msBeforeNext / 1000)), limitedBy };
    }
  }
  return { allowed: true };
}

/**
 * The licence API's calls to the item API: its budget times LICENCE_API_MAX_SHARE, shared by every instance.
 * Counted in windows of 10 s holding a seventh of the minute's calls (a minute, wherever it starts, touches at most
 * seven), so that a crowd of new codes gets a steady share and never a burst; a budget under 7 a minute is paced
 * one call at a time like background work's (lib/jobs/budget.ts).
 */
export function licenceBudget(itemsCallsPerMinute: number, limits: LicenceLimits): AreaBudget {
  const perMinute = backgroundCallsPerMinute(itemsCallsPerMinute, limits.maxShare);
  if (perMinute < 7) return areaBudget("licences", perMinute);
  const current = budgetSlot.get();
  if (current && current.perMinute === perMinute && current.cluster === currentCluster()) return current.budget;
  const cluster = currentCluster();
  const limiter = windowLimiter(cluster, "licence:budget", Math.floor(perMinute / 7), 10);
  const budget = limiterBudget(limiter, 10_000);
  budgetSlot.set({ perMinute, cluster, budget });
  return budget;
}

const budgetSlot = processSlot<{ perMinute: number; cluster: Cluster; budget: AreaBudget }>("licences.budget");

const BUDGET_SPENT: unique symbol = Symbol.for("gatehouse.LicenceBudgetSpent");

/** Thrown before an item API call the licence API's budget has no slot for (known by a symbol: bundles may split a class). */
export class LicenceBudgetSpent extends Error {
  readonly [BUDGET_SPENT] = true;
  constructor(readonly retryAfterMs: number) {
    super("The licence API's share of the item API's budget is spent for now.");
    this.name = "LicenceBudgetSpent";
  }
}

export function isLicenceBudgetSpent(error: unknown): error is LicenceBudgetSpent {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BUDGET_SPENT] === true;
}
