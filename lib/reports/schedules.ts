// A project's scheduled regeneration and its runs, in the store. A run row is created once per due time (unique on
// project, trigger and due_at), so several instances finding one schedule due make one run; the run is the job of
// the job system that works on it (./schedule-jobs.ts), and its row keeps where it got to (its cursor), so a job
// that runs again after its process died resumes there.
import "server-only";

import { randomUUID } from "node:crypto";

import type { Run, Schedule, ScheduleInput } from "@/lib/contract/history";
import type { RunStatus, RunTrigger, ScheduleFrequency } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { ReportScheduleRunRow } from "@/lib/db/schema";

import { nextRunAt } from "./schedule-time";

/** A run under way: regenerating, or waiting for the area's budget of background work (lib/jobs/budget.ts). */
const UNDER_WAY: RunStatus[] = ["running", "waiting"];

type ScheduleRow = {
  project: string;
  enabled: number;
  frequency: string;
  weekday: number | null;
  time: string;
  time_zone: string;
  next_run_at: string | null;
  updated_at: string;
  updated_by: string | null;
};

function toSchedule(row: ScheduleRow): Schedule {
  return {
    project: row.project,
    enabled: row.enabled === 1,
    frequency: row.frequency as ScheduleFrequency,
    weekday: row.weekday,
    time: row.time,
    time_zone: row.time_zone,
    next_run_at: row.next_run_at,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  };
}

export async function getSchedule(db: Db, project: string): Promise<Schedule | null> {
  const row = await db.selectFrom("report_schedules").selectAll().where("project", "=", project).executeTakeFirst();
  return row ? toSchedule(row) : null;
}

/** Creates or replaces a project's schedule; its next run is computed from `now`. */
export async function setSchedule(
  db: Db,
  project: string,
  input: ScheduleInput,
  by: string,
  now = new Date(),
): Promise<Schedule> {
  const timing = {
    frequency: input.frequency,
    weekday: input.frequency === "weekly" ? (input.weekday ?? 1) : null,
    time: input.time,
    time_zone: input.time_zone,
  };
  const at = now.toISOString();
  const row = {
    project,
    enabled: input.enabled ? 1 : 0,
    ...timing,
    next_run_at: input.enabled ? nextRunAt(timing, now).toISOString() : null,
    created_at: at,
    updated_at: at,
    updated_by: by,
  };
  const { created_at: _created, project: _project, ...changes } = row;
  await db
    .insertInto("report_schedules")
    .values(row)
    .onConflict((conflict) => conflict.column("project").doUpdateSet(changes))
    .execute();
  return toSchedule(row);
}

export async function deleteSchedule(db: Db, project: string): Promise<boolean> {
  const result = await db.deleteFrom("report_schedules").where("project", "=", project).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The columns a Run shows. */
type RunRow = Pick<ReportScheduleRunRow, keyof Run>;

export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    project: row.project,
    trigger: row.trigger as RunTrigger,
    status: row.status as RunStatus,
    due_at: row.due_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    total: row.total,
    done: row.done,
    failed: row.failed,
    outcome: row.outcome,
  };
}

/** A project's latest runs, newest first. */
export async function listRuns(db: Db, project: string, limit = 10): Promise<Run[]> {
  const rows = await db
    .selectFrom("report_schedule_runs")
    .selectAll()
    .where("project", "=", project)
    .orderBy("started_at", "desc")
    .limit(limit)
    .execute();
  return rows.map(toRun);
}

/** A run with where it got to: the last report id it handled. */
export type RunAt = Run & { cursor: number };

/** The run `id`, with its cursor; null when there is none. */
export async function getRun(db: Db, id: string): Promise<RunAt | null> {
  const row = await db.selectFrom("report_schedule_runs").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? { ...toRun(row), cursor: row.cursor } : null;
}

/** The ids of the runs under way (running, or waiting for the budget). */
export async function runsUnderWay(db: Db): Promise<string[]> {
  const rows = await db.selectFrom("report_schedule_runs").select("id").where("status", "in", UNDER_WAY).execute();
  return rows.map((row) => row.id);
}

/**
 * Creates a run for `due_at`; null when one exists already (another instance made it). A manual run is refused
 * (null) while the project has one under way.
 */
export async function createRun(
  db: Db,
  project: string,
  trigger: RunTrigger,
  dueAt: Date,
  now = new Date(),
): Promise<Run | null> {
  if (trigger === "manual") {
    const running = await db
      .selectFrom("report_schedule_runs")
      .select("id")
      .where("project", "=", project)
      .where("status", "in", UNDER_WAY)
      .executeTakeFirst();
    if (running) return null;
  }
  const row = {
    id: randomUUID(),
    project,
    trigger,
    status: "running",
    due_at: dueAt.toISOString(),
    started_at: now.toISOString(),
    finished_at: null,
    total: null,
    done: 0,
    failed: 0,
    cursor: 0,
    outcome: null,
  };
  const inserted = await db
    .insertInto("report_schedule_runs")
    .values(row)
    .onConflict((conflict) => conflict.columns(["project", "trigger", "due_at"]).doNothing())
    .returning("id")
    .execute();
  return inserted.length === 1 ? toRun(row) : null;
}

/** The schedules due at `now`: enabled, their next run not after it. */
export async function dueSchedules(db: Db, now: Date): Promise<Schedule[]> {
  const rows = await db
    .selectFrom("report_schedules")
    .selectAll()
    .where("enabled", "=", 1)
    .where("next_run_at", "<=", now.toISOString())
    .orderBy("next_run_at", "asc")
    .execute();
  return rows.map(toSchedule);
}

/** Moves a schedule past the run it was due for (only if no one moved it yet). */
export async function advanceSchedule(db: Db, schedule: Schedule, now: Date): Promise<void> {
  if (schedule.next_run_at === null) return;
  const next = nextRunAt(schedule, now).toISOString();
  await db
    .updateTable("report_schedules")
    .set({ next_run_at: next })
    .where("project", "=", schedule.project)
    .where("next_run_at", "=", schedule.next_run_at)
    .execute();
}

/** Writes a run's progress and status while it is under way; false when it is not (it ended already). */
export async function saveProgress(
  db: Db,
  runId: string,
  progress: { total?: number | null; done: number; failed: number; cursor: number },
  status: "running" | "waiting" = "running",
): Promise<boolean> {
  const result = await db
    .updateTable("report_schedule_runs")
    .set({ ...progress, status })
    .where("id", "=", runId)
    .where("status", "in", UNDER_WAY)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a run under way with its outcome (a run that ended already keeps its own). */
export async function finishRun(
  db: Db,
  runId: string,
  status: Exclude<RunStatus, "running" | "waiting">,
  outcome: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable("report_schedule_runs")
    .set({ status, outcome, finished_at: now.toISOString() })
    .where("id", "=", runId)
    .where("status", "in", UNDER_WAY)
    .execute();
}

/** Runs older than `days` go (their outcome is of no use by then). */
export async function pruneRuns(db: Db, days: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  const result = await db
    .deleteFrom("report_schedule_runs")
    .where("started_at", "<", cutoff)
    .where("status", "not in", UNDER_WAY)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
