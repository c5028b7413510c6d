// The process's side of reports over time: one recorder, area A's client with its answers recorded (for the
// API's routes and the pages alike), the schedules' two kinds of job (./schedule-jobs.ts: among the kinds
// startJobs() is given at start-up), and the history's pruning every hour. One per process, whichever bundle asks
// first (instrumentation at start, or a route).
//
// The pruning stays a timer of each instance, not a job: two DELETEs of what is past its time, harmless when two
// instances do them at once, with no upstream call to budget and nothing to resume.
import "server-only";

import { getServerContext } from "@/lib/auth/access";
import type { Run } from "@/lib/contract/history";
import { trigger } from "@/lib/jobs";
import { areaBudget, backgroundCallsPerMinute } from "@/lib/jobs/budget";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { processWide } from "@/lib/process-wide";
import { breakerStatus, getUpstreams, type ReportsClient } from "@/lib/upstream";

import { pruneHistory } from "./history";
import { observed, recordReports, ResultRecorder } from "./recorder";
import { queueRun, scheduleRunJob, scheduleTickJob, TICK_MS, tickJob, type ScheduleJobsDeps } from "./schedule-jobs";
import type { ScheduleRunnerDeps } from "./schedule-runner";
import { createRun, pruneRuns } from "./schedules";

const PRUNE_EVERY_MS = 60 * 60_000;
const RUNS_KEPT_DAYS = 90;

interface ReportsService {
  recorder: ResultRecorder;
  clients: WeakMap<ReportsClient, ReportsClient>;
  pruner: NodeJS.Timeout | null;
}

function service(): ReportsService {
  return processWide<ReportsService>("reports.service", () => ({
    recorder: new ResultRecorder(async () => (await getServerContext()).db),
    clients: new WeakMap(),
    pruner: null,
  }));
}

/** Area A's client with every result it answers recorded; null when area A is not configured. */
export async function getReportsClient(): Promise<ReportsClient | null> {
  const { reports } = await getUpstreams();
  if (!reports) return null;
  const { clients, recorder } = service();
  let client = clients.get(reports);
  if (!client) {
    client = observed(reports, recorder);
    clients.set(reports, client);
  }
  return client;
}

async function runnerDeps(): Promise<ScheduleRunnerDeps> {
  const [{ db, config }, { reports }] = await Promise.all([getServerContext(), getUpstreams()]);
  const { callsPerMinute, scheduleMaxShare } = config.reports;
  return {
    db,
    reports,
    breakerOpen: () => breakerStatus("reports").state === "open",
    budget: areaBudget("reports", backgroundCallsPerMinute(callsPerMinute, scheduleMaxShare)),
    record: (seen) => recordReports(db, seen, "schedule"),
  };
}

const jobsDeps: ScheduleJobsDeps = {
  db: async () => (await getServerContext()).db,
  runner: runnerDeps,
  queueTick: (payload, options) => trigger(reportScheduleTicks, payload, options),
  queueRun: (payload, options) => trigger(reportScheduleRuns, payload, options),
};

/** The kind of job of the schedules' ticks, among the kinds startJobs() is given at start-up. */
export const reportScheduleTicks = scheduleTickJob(jobsDeps);
/** The kind of job of the runs (scheduled and by hand), among the kinds startJobs() is given at start-up. */
export const reportScheduleRuns = scheduleRunJob(jobsDeps);

/** Starts a run of a project's regeneration now, as a job; null when one is under way already. */
export async function runProjectNow(project: string): Promise<Run | null> {
  const now = new Date();
  const run = await createRun(await jobsDeps.db(), project, "manual", now, now);
  if (run) await queueRun(run.id, jobsDeps.queueRun);
  return run;
}

async function prune(): Promise<void> {
  try {
    const { db, config } = await getServerContext();
    const removed = await pruneHistory(db, config.reports.retentionDays);
    const runs = await pruneRuns(db, RUNS_KEPT_DAYS);
    if (removed > 0 || runs > 0) logEvent("info", "report_history_pruned", { removed, runs });
  } catch (error) {
    logEvent("error", "report_history_prune_failed", { error: describeError(error) });
  }
}

/**
 * Triggers the current slot's tick (the first of this instance's chain, or the same job as another's) and starts
 * the pruning (instrumentation.ts, after startJobs); a second call does nothing.
 */
export function startReportJobs(): void {
  const state = service();
  if (state.pruner) return;
  const pruner = runOutsideRequestContext(() => setInterval(() => void prune(), PRUNE_EVERY_MS).unref());
  state.pruner = pruner;
  const startTicks = (): void => {
    const first = tickJob(Date.now());
    void jobsDeps.queueTick(first.payload, first.options).catch((error: unknown) => {
      // The provider's backend is away (Redis): try again at the next slot.
      logEvent("error", "report_schedules_tick_failed", { error: describeError(error) });
      runOutsideRequestContext(() => setTimeout(startTicks, TICK_MS).unref());
    });
  };
  startTicks();
  void prune();
  onShutdown("report history", async () => {
    clearInterval(pruner);
    await state.recorder.flush();
  });
}
