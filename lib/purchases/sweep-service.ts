// The sweep in the server process (./sweep.ts): its kind of job, given to startJobs() at start-up with the
// process's store, key and item client read when each tick runs, the item area's shared budget of background work,
// and the first tick of this instance's chain (the same job as another instance's for the same minute). An admin's
// "Sweep now" is one more job of the kind.
import "server-only";

import { getServerContext } from "@/lib/auth/access";
import { trigger } from "@/lib/jobs";
import { areaBudget, backgroundCallsPerMinute } from "@/lib/jobs/budget";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { processSlot } from "@/lib/process-wide";
import { getUpstreams } from "@/lib/upstream";

import type { SweepBudget } from "./lifecycle-admin";
import { purchaseSweepJob, SWEEP_TICK_MS, sweepNowJob, sweepTickJob, type SweepDeps } from "./sweep";

/** The sweep's share of the item API's budget, from the configuration. */
export function sweepBudgetOf(config: { itemsCallsPerMinute: number; sweepMaxShare: number }): SweepBudget {
  return {
    itemsCallsPerMinute: config.itemsCallsPerMinute,
    maxShare: config.sweepMaxShare,
    sweepCallsPerMinute: backgroundCallsPerMinute(config.itemsCallsPerMinute, config.sweepMaxShare),
  };
}

async function sweepDeps(): Promise<SweepDeps> {
  const [{ db, config }, { items }] = await Promise.all([getServerContext(), getUpstreams()]);
  const { sweepCallsPerMinute } = sweepBudgetOf(config.purchases);
  return {
    db,
    hashKey: config.dataKey,
    items,
    format: config.purchases.codeFormat,
    budget: areaBudget("items", sweepCallsPerMinute),
    callsPerMinute: sweepCallsPerMinute,
  };
}

/** The kind of the sweep's jobs, among the kinds startJobs() is given at start-up. */
export const purchaseSweeps = purchaseSweepJob({
  deps: sweepDeps,
  queueTick: (payload, options) => trigger(purchaseSweeps, payload, options),
});

/** An admin's "Sweep now": a job of the kind, run after any tick under way. */
export async function sweepNow(): Promise<void> {
  const { payload, options } = sweepNowJob(Date.now());
  await trigger(purchaseSweeps, payload, options);
}

const STARTED = processSlot<true>("purchases.sweep");

/** Triggers the current minute's tick (instrumentation.ts, after startJobs); a second call does nothing. */
export function startPurchaseSweep(): void {
  if (STARTED.get()) return;
  STARTED.set(true);
  const startTicks = (): void => {
    const first = sweepTickJob(Date.now());
    void trigger(purchaseSweeps, first.payload, first.options).catch((error: unknown) => {
      // The provider's backend is away (Redis): try again at the next minute.
      logEvent("error", "purchase_sweep_tick_failed", { error: describeError(error) });
      runOutsideRequestContext(() => setTimeout(startTicks, SWEEP_TICK_MS).unref());
    });
  };
  startTicks();
}
