// One run of a project's regeneration, resumed where it got to: the project's reports listed, then regenerated one
// by one after the run's cursor, each call taken from the reports area's budget of background work (lib/jobs/
// budget.ts: shared by every run on every instance; a run waits for it, saying so), skipped while the area's
// circuit breaker is open. Its progress is saved after every report, so the run's job, run again after its
// process died (./schedule-jobs.ts), goes on from there.
import "server-only";

import { setTimeout as wait } from "node:timers/promises";

import type { Run } from "@/lib/contract/history";
import type { Report } from "@/lib/contract/reports";
import type { Db } from "@/lib/db";
import type { AreaBudget } from "@/lib/jobs/budget";
import { describeError, logEvent } from "@/lib/log";
import { isCircuitOpenError, isUpstreamError, type ReportsClient } from "@/lib/upstream";
import { upstreamFailureWords } from "@/lib/upstream/failure";

import { finishRun, getSchedule, saveProgress, type RunAt } from "./schedules";

export interface ScheduleRunnerDeps {
  db: Db;
  /** Area A's client; null when it is not configured (runs are then skipped, saying so). */
  reports: ReportsClient | null;
  /** Whether area A's circuit breaker is open now. */
  breakerOpen: () => boolean;
  /** The budget every scheduled call is taken from: the reports API's budget times REPORT_SCHEDULE_MAX_SHARE, shared. */
  budget: AreaBudget;
  /** Records what a run saw (the history, alerts and events). */
  record: (reports: readonly Report[]) => Promise<void>;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

/** The run ended meanwhile (another job of it finished it): this one stops without a word. */
class EndedRun extends Error {}

/** Regenerates the run's project's reports with an id above its cursor, and ends the run with its outcome. */
export async function runOne(run: RunAt, deps: ScheduleRunnerDeps): Promise<Run> {
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? wait;
  const { db } = deps;
  const { cursor, ...shown } = run;
  const finish = async (
    status: "done" | "partial" | "skipped" | "failed",
    outcome: string,
    progress: Partial<Run> = {},
  ): Promise<Run> => {
    await finishRun(db, run.id, status, outcome, now());
    logEvent(status === "done" ? "info" : "warn", "report_schedule_run_finished", {
      project: run.project,
      run_id: run.id,
      status,
      outcome,
    });
    return { ...shown, ...progress, status, outcome, finished_at: now().toISOString() };
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
   * whose slot went to another run, is `waiting` (its page says so) until it gets one. (Its job stays claimed
   * meanwhile: the provider renews the job's lease or lock, however long the wait.)
   */
  const paced = async <T>(call: () => Promise<T>): Promise<T> => {
    let waited = 0;
    for (let wait = await deps.budget.take(); wait > 0; wait = await deps.budget.take()) {
      if (status === "running" && (calls === 0 || waited >= deps.budget.intervalMs)) {
        status = "waiting";
        if (!(await saveProgress(db, run.id, progress, status))) throw new EndedRun();
      }
      await sleep(wait);
      waited += wait;
    }
    if (status === "waiting") {
      status = "running";
      if (!(await saveProgress(db, run.id, progress, status))) throw new EndedRun();
    }
    calls += 1;
    return call();
  };

  let reports: Report[];
  try {
    reports = await listProjectReports(client, run.project, paced);
  } catch (error) {
    if (error instanceof EndedRun) return { ...shown, ...progress };
    return finish(
      isCircuitOpenError(error) ? "skipped" : "failed",
      `Could not list the project's reports: ${failureText(error)}.`,
    );
  }
  const todo = reports.filter((report) => report.id > cursor).sort((a, b) => a.id - b.id);
  Object.assign(progress, { total: reports.length, done: reports.length - todo.length });
  if (!(await saveProgress(db, run.id, progress))) return { ...shown, ...progress };
  const total = reports.length;

  for (const report of todo) {
    try {
      const regenerated = await paced(() => client.updateReport(report.id, { results: true }));
      progress.done += 1;
      await deps.record([regenerated]);
    } catch (error) {
      if (error instanceof EndedRun) return { ...shown, ...progress }; // another process took it over
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
    if (!(await saveProgress(db, run.id, progress))) return { ...shown, ...progress }; // another process took it over
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
