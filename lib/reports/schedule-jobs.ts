// The report schedules as jobs of the job system (lib/jobs), two kinds:
// - the tick: one job per 30-second slot, its id the slot's start, so every instance triggering the same slot makes
//   one job. It triggers the next slot's tick first (the chain goes on whatever this one meets), then creates the
//   due runs (once across instances: a run row is unique on its due time), moves their schedules on, and triggers
//   a run job for every run under way — the new ones, and any whose trigger was lost (the rows are the record;
//   a run's job already there is that job).
// - the run: one job per run, resuming it at its cursor (./schedule-runner.ts). A process that dies mid-run loses
//   the job's lease (the store) or lock (BullMQ), and the job runs again elsewhere, from the saved cursor.
import "server-only";

import { z } from "zod";

import type { Db } from "@/lib/db";
import { defineJob, type JobDefinition } from "@/lib/jobs";
import { describeError, logEvent } from "@/lib/log";

import { runOne, type ScheduleRunnerDeps } from "./schedule-runner";
import { advanceSchedule, createRun, dueSchedules, getRun, runsUnderWay } from "./schedules";

/** A tick's slot: due schedules are looked for this often. */
export const TICK_MS = 30_000;
/**
 * Runs at once: the budget, not this, paces them (runs started together share it, each `waiting` its turn), so it
 * is as high as *Run now* on many projects asks; across the cluster on BullMQ, in each process on the store.
 */
const CONCURRENT_RUNS = 16;

const tickPayload = z.object({ slot: z.number().int() });
const runPayload = z.object({ runId: z.string() });
type TickPayload = z.infer<typeof tickPayload>;
type RunPayload = z.infer<typeof runPayload>;
type Queue<P> = (payload: P, options: { id: string; runAt?: Date }) => Promise<void>;

export interface ScheduleJobsDeps {
  db: () => Promise<Db>;
  /** What a run needs: area A's client, its breaker, the budget, the recorder. */
  runner: () => Promise<ScheduleRunnerDeps>;
  /** Adds a tick's job, and a run's (trigger() in production). */
  queueTick: Queue<TickPayload>;
  queueRun: Queue<RunPayload>;
  now?: () => Date;
}

/** The tick of the slot `at` falls in: its payload and its job's id and time. */
export function tickJob(at: number): { payload: TickPayload; options: { id: string; runAt: Date } } {
  const slot = Math.floor(at / TICK_MS) * TICK_MS;
  return { payload: { slot }, options: { id: `report-schedule-tick-${slot}`, runAt: new Date(slot) } };
}

/** The job of a run (its id names the run: triggered again, the same job). */
export function runJob(runId: string): { payload: RunPayload; options: { id: string } } {
  return { payload: { runId }, options: { id: `report-schedule-run-${runId}` } };
}

/** Triggers the run's job; a failure is logged (the next tick triggers it again). */
export async function queueRun(runId: string, queue: Queue<RunPayload>): Promise<void> {
  const { payload, options } = runJob(runId);
  await queue(payload, options).catch((error: unknown) =>
    logEvent("warn", "report_schedule_run_not_queued", { run_id: runId, error: describeError(error) }),
  );
}

/** The kind: one slot's look for due schedules. */
export function scheduleTickJob(deps: ScheduleJobsDeps): JobDefinition<TickPayload> {
  return defineJob({
    kind: "report-schedule-tick",
    payload: tickPayload,
    concurrency: 1,
    // Its first step keeps the chain of ticks going: never dropped for want of a retry.
    maxRetries: Number.MAX_SAFE_INTEGER,
    async handle({ slot }) {
      const now = (deps.now ?? (() => new Date()))();
      // The slot after this one, or after now when this tick ran late (never this slot again: its job is this one).
      const next = tickJob(Math.max(slot, now.getTime()) + TICK_MS);
      await deps.queueTick(next.payload, next.options);
      try {
        const db = await deps.db();
        for (const schedule of await dueSchedules(db, now)) {
          const dueAt = new Date(schedule.next_run_at ?? now.toISOString());
          await createRun(db, schedule.project, "schedule", dueAt, now);
          await advanceSchedule(db, schedule, now);
        }
        for (const runId of await runsUnderWay(db)) await queueRun(runId, deps.queueRun);
      } catch (error) {
        // The next tick looks again.
        logEvent("error", "report_schedules_tick_failed", { error: describeError(error) });
      }
      return { kind: "done" };
    },
  });
}

/** The kind: one run, from its cursor to its end. */
export function scheduleRunJob(deps: ScheduleJobsDeps): JobDefinition<RunPayload> {
  return defineJob({
    kind: "report-schedule-run",
    payload: runPayload,
    concurrency: CONCURRENT_RUNS,
    async handle({ runId }) {
      const run = await getRun(await deps.db(), runId);
      // Ended already (this job triggered again after its run finished), or pruned.
      if (!run || (run.status !== "running" && run.status !== "waiting")) return { kind: "done" };
      await runOne(run, await deps.runner());
      return { kind: "done" };
    },
  });
}
