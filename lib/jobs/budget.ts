// The per-area budget of background work: the calls a minute one area's jobs may spend, all kinds and all
// instances together. Every call a job makes takes its slot from the area's one limiter (lib/cluster/limiter.ts:
// counted in Redis when REDIS_URL is set, in this process otherwise). Its window is cut so that no minute,
// wherever it starts, holds more calls than the budget: thirteen jobs started at once share the pace of one
// instead of each keeping its own. A job waits for its slot (it stays claimed meanwhile: the provider renews it).
import "server-only";

import type { RateLimiterAbstract } from "rate-limiter-flexible";

import { currentCluster, type Cluster } from "@/lib/cluster";
import { refusal, windowLimiter } from "@/lib/cluster/limiter";
import { processWide } from "@/lib/process-wide";

/** Calls a minute an area's background work may spend: its budget times the share (never 0, so that a job always ends). */
export const backgroundCallsPerMinute = (callsPerMinute: number, share: number): number =>
  Math.max(callsPerMinute * share, 1 / 60);

/**
 * The limiter's window for a budget: `points` calls per `seconds` (whole seconds: Redis counts no finer), so that
 * no minute, wherever it starts, holds more than `callsPerMinute` calls.
 */
export function budgetWindow(callsPerMinute: number): { points: number; seconds: number } {
  // More than two a second: a second's share, leaving room for the 61 windows a minute can touch.
  if (callsPerMinute >= 122) return { points: Math.floor(callsPerMinute / 61), seconds: 1 };
  // Otherwise one call per whole number of seconds, never closer than the budget allows (45 a minute: one every 2 s).
  return { points: 1, seconds: Math.max(1, Math.ceil(60 / callsPerMinute)) };
}

export interface AreaBudget {
  /** The limiter's window, in ms: a job that waited this long lost a slot to another. */
  intervalMs: number;
  /** Takes the next call's slot: 0 when the caller may call now, or the ms to wait before asking again. */
  take(): Promise<number>;
}

/** A budget of its own (tests); the process's jobs share areaBudget(). */
export function newAreaBudget(area: string, callsPerMinute: number, cluster: Cluster): AreaBudget {
  const { points, seconds } = budgetWindow(callsPerMinute);
  return limiterBudget(windowLimiter(cluster, `background:${area}`, points, seconds), seconds * 1000);
}

/** A budget over a limiter of `intervalMs` windows (the licence API's has windows of its own: lib/licences/limits.ts). */
export function limiterBudget(limiter: RateLimiterAbstract, intervalMs: number): AreaBudget {
  return {
    intervalMs,
    async take() {
      try {
        await limiter.consume("calls");
        return 0;
      } catch (rejection) {
        const refused = refusal(rejection);
        if (!refused) throw rejection;
        return Math.max(1, refused.msBeforeNext);
      }
    },
  };
}

// Every bundle's jobs of an area share one budget; a new rate or a new cluster makes a new one.
const budgets = () =>
  processWide(
    "jobs.areaBudgets",
    () => new Map<string, { callsPerMinute: number; cluster: Cluster; budget: AreaBudget }>(),
  );

/** The budget every job of `area` in this process takes its calls from (shared with other instances through Redis). */
export function areaBudget(area: string, callsPerMinute: number, cluster: Cluster = currentCluster()): AreaBudget {
  let slot = budgets().get(area);
  if (!slot || slot.callsPerMinute !== callsPerMinute || slot.cluster !== cluster) {
    slot = { callsPerMinute, cluster, budget: newAreaBudget(area, callsPerMinute, cluster) };
    budgets().set(area, slot);
  }
  return slot.budget;
}
