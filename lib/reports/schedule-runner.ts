// Runs the scheduled regenerations that are due: for each, one run row (created once across instances), then the
// project's reports regenerated one by one, each call taken from the one budget all scheduled work shares
// (schedule-budget.ts: across runs and instances; a run waits for it, saying so), skipped while the area's
// circuit breaker is open. Small on purpose, behind runDueSchedules(now) and runOne(): the job system
// (lib/jobs) has landed, and the schedules are still to move onto it (issue 30): a due-schedules tick calling
// runDueSchedules, a run a job, and this shared budget the provider's per-area budget.
import "server-only";

import { setTimeout as wait } from "node:timers/promises";

import type { Run } from "@/lib/contract/history";
import type { Report } from "@/lib/contract/reports";
import type { Db } from "@/lib/db";
import { describeError, logEvent } from "@/lib/log";
import { isCircuitOpenError, isUpstreamError, type ReportsClient } from "@/lib/upstream";
import { upstreamFailureWords } from "@/lib/upstream/failure";

import type { ScheduleBudget } from "./schedule-budget";
import {
  advanceSchedule,
  claimStaleRun,
  createRun,
  dueSchedules,
  finishRun,
  getSchedule,
  RUN_LEASE_MS,
  saveProgress,
} from "./schedules";

export interface ScheduleRunnerDeps {
  db: Db;
  /** Area A's client; null when it is not configured (runs are then skipped, saying so). */
  reports: ReportsClient | null;
  /** Whether area A's circuit breaker is open now. */
  breakerOpen: () => boolean;
  /** The budget every scheduled call is taken from: the reports API's budget times REPORT_SCHEDULE_MAX_SHARE, shared. */
  budget: ScheduleBudget;
  /** Records what a run saw (the history, alerts and events). */
  record: (reports: readonly Report[]) => Promise<void>;
  /** Who holds the runs this process works on. */
  owner: string;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

/** A long wait for the budget is cut into slices of at most this long, the run's lease renewed after each. */
const RENEW_EVERY_MS = Math.floor(RUN_LEASE_MS / 3);

/** The run's lease went to another process (this one was too slow to renew it): it stops without a word. */
class LostRun extends Error {}

/**
 * Starts the run of every schedule due at `now` (a run another instance created already is left to it), moves
 * each schedule to its next time, and takes over runs whose process died. Resolves when these runs have ended.
 */
export async function runDueSchedules(now: Date, deps: ScheduleRunnerDeps): Promise<Run[]> {
  const started: Run[] = [];
  for (const schedule of await dueSchedules(deps.db, now)) {
    const dueAt = new Date(schedule.next_run_at ?? now.toISOString());
    const run = await createRun(deps.db, schedule.project, "schedule", dueAt, deps.owner, now);
    await advanceSchedule(deps.db, schedule, now);
    if (run) started.push(run);
  }
  const ran: Run[] = [];
  for (const run of started) ran.push(await runOne(run, 0, deps));
  for (
    let stale = await claimStaleRun(deps.db, deps.owner, now);
    stale;
    stale = await claimStaleRun(deps.db, deps.owner, now)
  ) {
    ran.push(await runOne(stale, stale.cursor, deps));
  }
  return ran;
}

/** Regenerates the run's project's reports with an id above `cursor`, and ends the run with its outcome. */
export async function runOne(run: Run, cursor: number, deps: ScheduleRunnerDeps): Promise<Run> {
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? wait;
  const { db, owner } = deps;
  const finish = async (
    status: "done" | "partial" | "skipped" | "failed",
    outcome: string,
    progress: Partial<Run> = {},
  ): Promise<Run> => {
    await finishRun(db, run.id, owner, status, outcome, now());
    logEvent(status === "done" ? "info" : "warn", "report_schedule_run_finished", {
      project: run.project,
      run_id: run.id,
      status,
      outcome,
    });
    return { ...run, ...progress, status, outcome, finished_at: now().toISOString() };
  };
  const next = async () => {
    const schedule = await getSchedule(db, run.project);
    return schedule?.next_run_at ? ` The next run is at ${schedule.next_run_at}.` : "";
  };

  if (!deps.reports) return finish("skipped", `Skipped: the reports API is not configured.${await next()}`);
  if (deps.breakerOpen()) {
    return finish(
      "skipped",
      `Skipped: the reports API has been failing, and Gatehouse's circuit breaker for it is open, so no report was regenerated.${await next()}`,
    );
  }
  const client = deps.reports;
  const progress = { total: null as number | null, done: run.done, failed: run.failed, cursor };
  let calls = 0;
  let status: "running" | "waiting" = "running";
  /**
   * Makes the call once the shared budget gives this run a slot. A run that has not made its first call yet, or
   * whose slot went to another run, is `waiting` (its page says so) until it gets one. Its lease is renewed at
   * least every third of it meanwhile, so no other instance takes the run over while it waits.
   */
  const paced = async <T>(call: () => Promise<T>): Promise<T> => {
    let waited = 0;
    let renewedAt = now().getTime();
    for (let wait = await deps.budget.take(); wait > 0; wait = await deps.budget.take()) {
      const queued = calls === 0 || waited >= deps.budget.intervalMs;
      if ((queued && status === "running") || now().getTime() - renewedAt >= RENEW_EVERY_MS) {
        if (queued) status = "waiting";
        if (!(await saveProgress(db, run.id, owner, progress, now(), status))) throw new LostRun();
        renewedAt = now().getTime();
      }
      const slice = Math.min(wait, RENEW_EVERY_MS);
      await sleep(slice);
      waited += slice;
    }
    if (status === "waiting") {
      status = "running";
      if (!(await saveProgress(db, run.id, owner, progress, now(), status))) throw new LostRun();
    }
    calls += 1;
    return call();
  };

  let reports: Report[];
  try {
    reports = await listProjectReports(client, run.project, paced);
  } catch (error) {
    if (error instanceof LostRun) return { ...run, ...progress };
    return finish(
      isCircuitOpenError(error) ? "skipped" : "failed",
      `Could not list the project's reports: ${failureText(error)}.`,
    );
  }
  const todo = reports.filter((report) => report.id > cursor).sort((a, b) => a.id - b.id);
  Object.assign(progress, { total: reports.length, done: reports.length - todo.length });
  if (!(await saveProgress(db, run.id, owner, progress, now()))) return { ...run, ...progress };
  const total = reports.length;

  for (const report of todo) {
    try {
      const regenerated = await paced(() => client.updateReport(report.id, { results: true }));
      progress.done += 1;
      await deps.record([regenerated]);
    } catch (error) {
      if (error instanceof LostRun) return { ...run, ...progress }; // another process took it over
      if (isCircuitOpenError(error)) {
        return finish(
          "partial",
          `Stopped after ${progress.done} of ${total}: the reports API started failing and Gatehouse's circuit breaker for it opened.`,
          progress,
        );
      }
      progress.failed += 1;
      progress.done += 1;
      logEvent("warn", "report_schedule_regenerate_failed", {
        project: run.project,
        run_id: run.id,
        report_id: report.id,
        error: describeError(error),
      });
    }
    progress.cursor = report.id;
    if (!(await saveProgress(db, run.id, owner, progress, now()))) return { ...run, ...progress }; // another process took it over
  }
  const regenerated = total - progress.failed;
  if (progress.failed > 0)
    return finish(
      "partial",
      `Regenerated ${regenerated} of ${total} reports; ${progress.failed} failed (see the log).`,
      progress,
    );
  return finish("done", total === 0 ? "The project has no reports." : `Regenerated all ${total} reports.`, progress);
}

/** Every report of a project, 100 a page. */
async function listProjectReports(
  client: ReportsClient,
  project: string,
  paced: <T>(call: () => Promise<T>) => Promise<T>,
): Promise<Report[]> {
  const reports: Report[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await paced(() => client.listReports({ project, per_page: 100, page, sort_by: "id", sort: "asc" }));
    reports.push(...answer.data);
    if (page >= answer.meta.last_page || answer.data.length === 0) break;
  }
  return reports;
}

function failureText(error: unknown): string {
  if (isUpstreamError(error)) {
    const { what } = upstreamFailureWords(error);
    return `the reports API ${what}`;
  }
  return error instanceof Error ? error.message : String(error);
}
