// A project's scheduled regeneration and its runs, in the store. A run row is created once per due time
// (unique on project, trigger and due_at) and held by lease by the process that works on it, so several
// instances finding one schedule due run it once, and a run whose process died is taken over where it stopped.
import "server-only";

import { randomUUID } from "node:crypto";

import type { Run, Schedule, ScheduleInput } from "@/lib/contract/history";
import type { RunStatus, RunTrigger, ScheduleFrequency } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { ReportScheduleRunRow } from "@/lib/db/schema";

import { nextRunAt } from "./schedule-time";

/** A run holds its lease this long; the runner renews it after every report. */
export const RUN_LEASE_MS = 60_000;

/** A run under way: regenerating, or waiting for the scheduled work's budget (lib/reports/schedule-budget.ts). */
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

/**
 * Creates a run for `due_at` held by `owner`; null when one exists already (another instance made it). A manual
 * run is refused (null) while the project has one running.
 */
export async function createRun(
  db: Db,
  project: string,
  trigger: RunTrigger,
  dueAt: Date,
  owner: string,
  now = new Date(),
): Promise<Run | null> {
  if (trigger === "manual") {
    const running = await db
      .selectFrom("report_schedule_runs")
      .select("id")
      .where("project", "=", project)
      .where("status", "in", UNDER_WAY)
      .where("lease_until", ">=", now.toISOString())
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
    lease_owner: owner,
    lease_until: new Date(now.getTime() + RUN_LEASE_MS).toISOString(),
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

/** Takes over a run whose process stopped renewing its lease; returns it with where it got to. */
export async function claimStaleRun(db: Db, owner: string, now: Date): Promise<(Run & { cursor: number }) | null> {
  const at = now.toISOString();
  const candidate = await db
    .selectFrom("report_schedule_runs")
    .selectAll()
    .where("status", "in", UNDER_WAY)
    .where("lease_until", "<", at)
    .orderBy("started_at", "asc")
    .executeTakeFirst();
  if (!candidate) return null;
  const result = await db
    .updateTable("report_schedule_runs")
    .set({ lease_owner: owner, lease_until: new Date(now.getTime() + RUN_LEASE_MS).toISOString() })
    .where("id", "=", candidate.id)
    .where("status", "in", UNDER_WAY)
    .where("lease_until", "<", at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { ...toRun(candidate), cursor: candidate.cursor } : null;
}

/** Writes a run's progress and status (and renews its lease) while `owner` holds it; false when it no longer does. */
export async function saveProgress(
  db: Db,
  runId: string,
  owner: string,
  progress: { total?: number | null; done: number; failed: number; cursor: number },
  now: Date,
  status: "running" | "waiting" = "running",
): Promise<boolean> {
  const result = await db
    .updateTable("report_schedule_runs")
    .set({ ...progress, status, lease_until: new Date(now.getTime() + RUN_LEASE_MS).toISOString() })
    .where("id", "=", runId)
    .where("lease_owner", "=", owner)
    .where("status", "in", UNDER_WAY)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function finishRun(
  db: Db,
  runId: string,
  owner: string,
  status: Exclude<RunStatus, "running" | "waiting">,
  outcome: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable("report_schedule_runs")
    .set({ status, outcome, finished_at: now.toISOString(), lease_owner: null, lease_until: null })
    .where("id", "=", runId)
    .where("lease_owner", "=", owner)
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
