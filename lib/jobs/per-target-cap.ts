// A cap on the jobs of one kind that work on one target at once (a webhook endpoint, a notification channel), in
// this process: while a target has `max` under way, another job for it is answered `retry` after `busyWaitMs`
// instead of running, so one slow or unreachable target holds at most `max` of the kind's slots and every other
// target's jobs go on. A job over its cap is not counted as a failure: it asks again shortly.
import type { JobOutcome } from "./define";

export interface PerTargetCap {
  /** Runs `work` when `target` is under its cap (counting it while it runs), else answers `retry`. */
  run(target: string, work: () => Promise<JobOutcome>): Promise<JobOutcome>;
  /** The jobs under way for `target` in this process. */
  inFlight(target: string): number;
}

export function perTargetCap(max: number, busyWaitMs: number): PerTargetCap {
  const running = new Map<string, number>();
  return {
    async run(target, work) {
      const busy = running.get(target) ?? 0;
      if (busy >= max) return { kind: "retry", afterMs: busyWaitMs };
      running.set(target, busy + 1);
      try {
        return await work();
      } finally {
        const left = (running.get(target) ?? 1) - 1;
        if (left === 0) running.delete(target);
        else running.set(target, left);
      }
    },
    inFlight: (target) => running.get(target) ?? 0,
  };
}
