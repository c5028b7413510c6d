// The process's side of reports over time: one recorder, area A's client with its answers recorded (for the
// API's routes and the pages alike), and the periodic work: due schedules every 30 seconds, the history's
// pruning every hour. One per process, whichever bundle asks first (instrumentation at start, or a route).
import "server-only";

import { randomUUID } from "node:crypto";

import { getServerContext } from "@/lib/auth/access";
import type { Run } from "@/lib/contract/history";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { breakerStatus, getUpstreams, type ReportsClient } from "@/lib/upstream";
import { processWide } from "@/lib/process-wide";

import { pruneHistory } from "./history";
import { observed, recordReports, ResultRecorder } from "./recorder";
import { scheduleBudget, scheduledCallsPerMinute } from "./schedule-budget";
import { runDueSchedules, runOne, type ScheduleRunnerDeps } from "./schedule-runner";
import { createRun, pruneRuns } from "./schedules";

const SCHEDULE_TICK_MS = 30_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const RUNS_KEPT_DAYS = 90;

interface ReportsService {
  recorder: ResultRecorder;
  owner: string;
  clients: WeakMap<ReportsClient, ReportsClient>;
  timers: NodeJS.Timeout[];
  ticking: boolean;
}

function service(): ReportsService {
  return processWide<ReportsService>("reports.service", () => ({
    recorder: new ResultRecorder(async () => (await getServerContext()).db),
    owner: `reports-${process.pid}-${randomUUID().slice(0, 8)}`,
    clients: new WeakMap(),
    timers: [],
    ticking: false,
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
    budget: scheduleBudget(scheduledCallsPerMinute(callsPerMinute, scheduleMaxShare)),
    record: (seen) => recordReports(db, seen, "schedule"),
    owner: service().owner,
  };
}

/** Starts a run of a project's regeneration now, in the background; null when one is running already. */
export async function runProjectNow(project: string): Promise<Run | null> {
  const deps = await runnerDeps();
  const now = new Date();
  const run = await createRun(deps.db, project, "manual", now, deps.owner, now);
  if (run) {
    void runOutsideRequestContext(() =>
      runOne(run, 0, deps).catch((error: unknown) =>
        logEvent("error", "report_schedule_run_failed", { project, run_id: run.id, error: describeError(error) }),
      ),
    );
  }
  return run;
}

async function tick(): Promise<void> {
  const state = service();
  if (state.ticking) return; // the last tick's runs are still going
  state.ticking = true;
  try {
    await runDueSchedules(new Date(), await runnerDeps());
  } catch (error) {
    logEvent("error", "report_schedules_tick_failed", { error: describeError(error) });
  } finally {
    state.ticking = false;
  }
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

/** Starts the periodic work (instrumentation.ts); a second call does nothing. */
export function startReportJobs(): void {
  const state = service();
  if (state.timers.length > 0) return;
  runOutsideRequestContext(() => {
    state.timers.push(
      setInterval(() => void tick(), SCHEDULE_TICK_MS),
      setInterval(() => void prune(), PRUNE_EVERY_MS),
    );
    for (const timer of state.timers) timer.unref();
    void tick();
    void prune();
  });
  onShutdown("report history", async () => {
    for (const timer of state.timers.splice(0)) clearInterval(timer);
    await state.recorder.flush();
  });
}
