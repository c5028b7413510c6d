// The rules' periodic work, one kind of job of lib/jobs: a tick per slot (its id the slot's start, so every
// instance triggering the same slot makes one job) that queues the next slot's first, then reads the results
// recorded since the last read (a report's change lasts by results), says the upstreams down that have lasted
// their minutes, and writes the digests due.
import "server-only";

import { z } from "zod";

import { defineJob, type JobDefinition } from "@/lib/jobs";
import { describeError, logEvent } from "@/lib/log";

import { sendDueDigests } from "./digest";
import { checkDueConditions, readNewResults, type RulesDeps } from "./rules";

/** A tick's slot, unless a test speeds it up. */
export const NOTIFICATION_TICK_MS = 30_000;

const tickPayload = z.object({ slot: z.number().int() });
type TickPayload = z.infer<typeof tickPayload>;
type Queue = (payload: TickPayload, options: { id: string; runAt?: Date }) => Promise<void>;

export interface TickJobDeps {
  rules: () => Promise<RulesDeps>;
  queueTick: Queue;
  tickMs: () => number;
}

/** The tick of the slot `at` falls in. */
export function notificationTickJob(
  at: number,
  tickMs: number,
): { payload: TickPayload; options: { id: string; runAt: Date } } {
  const slot = Math.floor(at / tickMs) * tickMs;
  return { payload: { slot }, options: { id: `notification-tick-${slot}`, runAt: new Date(slot) } };
}

/** One tick's work (also what a test calls): results read, upstreams due, digests due. */
export async function runTick(deps: RulesDeps): Promise<{ results: number; conditions: number; digests: number }> {
  const results = await readNewResults(deps);
  const conditions = await checkDueConditions(deps);
  const digests = await sendDueDigests(deps);
  return { results, conditions, digests };
}

export function notificationTicks(deps: TickJobDeps): JobDefinition<TickPayload> {
  return defineJob({
    kind: "notification-tick",
    payload: tickPayload,
    concurrency: 1,
    // Its first step keeps the chain of ticks going: never dropped for want of a retry.
    maxRetries: Number.MAX_SAFE_INTEGER,
    async handle({ slot }) {
      const tickMs = deps.tickMs();
      const next = notificationTickJob(Math.max(slot, Date.now()) + tickMs, tickMs);
      await deps.queueTick(next.payload, next.options);
      try {
        await runTick(await deps.rules());
      } catch (error) {
        // The next tick looks again.
        logEvent("error", "notification_tick_failed", { error: describeError(error) });
      }
      return { kind: "done" };
    },
  });
}
