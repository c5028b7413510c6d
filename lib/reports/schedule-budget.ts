// One budget for all scheduled regeneration: every run, on every instance, takes each call's slot from the same
// limiter (rate-limiter-flexible through lib/cluster/limiter.ts: counted in Redis when REDIS_URL is set, in this
// process otherwise). Its window is cut so that no minute, wherever it starts, holds more calls than the budget:
// thirteen runs started at once share the pace of one instead of each keeping its own.
import "server-only";

import type { RateLimiterAbstract } from "rate-limiter-flexible";

import { refusal, windowLimiter } from "@/lib/cluster/limiter";
import { currentCluster, type Cluster } from "@/lib/cluster";
import { processSlot } from "@/lib/process-wide";

/** Calls a minute all scheduled work may make: the reports API's budget times the share (never 0, so that a run always ends). */
export const scheduledCallsPerMinute = (callsPerMinute: number, share: number): number =>
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

export interface ScheduleBudget {
  /** The limiter's window, in ms: a run that waited this long lost a slot to another. */
  intervalMs: number;
  /** Takes the next call's slot: 0 when the caller may call now, or the ms to wait before asking again. */
  take(): Promise<number>;
}

/** A budget of its own (tests); the process's runs share scheduleBudget(). */
export function newScheduleBudget(callsPerMinute: number, cluster: Cluster): ScheduleBudget {
  const { points, seconds } = budgetWindow(callsPerMinute);
  const limiter: RateLimiterAbstract = windowLimiter(cluster, "report-schedule", points, seconds);
  return {
    intervalMs: seconds * 1000,
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

// Every bundle's runs share one budget; a new rate or a new cluster makes a new one.
const budgetSlot = processSlot<{ callsPerMinute: number; cluster: Cluster; budget: ScheduleBudget }>(
  "reports.scheduleBudget",
);

/** The budget every scheduled run of this process takes its calls from (shared with other instances through Redis). */
export function scheduleBudget(callsPerMinute: number, cluster: Cluster = currentCluster()): ScheduleBudget {
  let slot = budgetSlot.get();
  if (!slot || slot.callsPerMinute !== callsPerMinute || slot.cluster !== cluster) {
    slot = { callsPerMinute, cluster, budget: newScheduleBudget(callsPerMinute, cluster) };
    budgetSlot.set(slot);
  }
  return slot.budget;
}
