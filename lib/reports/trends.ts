// Reading the history: results by day (overall or one project's), each project's mix of results, and two days
// of a project side by side. The by-day count is one GROUP BY read from the (day, result) index alone, or (project,
// day, result) for a project: scripts/bench/history.ts holds it under 100 ms over 100,000 rows on either store.
import "server-only";

import { sql } from "kysely";

import type { Compare, CompareRow, ProjectMix, Trend, TrendDay } from "@/lib/contract/history";
import { RESULT_RANK, type ReportResult } from "@/lib/contract/values";
import type { Db } from "@/lib/db";

import { dayOf } from "./history";

const DAY_MS = 86_400_000;

/** The days from `days - 1` days before `today` to `today`, oldest first (UTC). */
export function dayRange(days: number, today: Date): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: days }, (_, index) => dayOf(new Date(end - (days - 1 - index) * DAY_MS).toISOString()));
}

/**
 * The by-day count between two days (inclusive), overall or for one project: the statement resultTrend runs, on
 * its own so that a test can EXPLAIN exactly it. Only day, result and project are read, so the (day, result) and
 * (project, day, result) indexes answer it without the table.
 */
export function trendQuery(db: Db, from: string, to: string, project?: string) {
  let query = db
    .selectFrom("report_results")
    .select(["day", "result", sql<number>`count(*)`.as("n")])
    .where("day", ">=", from)
    .where("day", "<=", to);
  if (project !== undefined) query = query.where("project", "=", project);
  return query.groupBy(["day", "result"]);
}

/** Results by day for the last `days` days (today included), overall or for one project; every day present. */
export async function resultTrend(db: Db, options: { days: number; project?: string; today?: Date }): Promise<Trend> {
  const range = dayRange(options.days, options.today ?? new Date());
  const from = range[0] ?? "";
  const to = range[range.length - 1] ?? "";
  const rows = await trendQuery(db, from, to, options.project).execute();
  const byDay = new Map<string, TrendDay>(range.map((day) => [day, { day, good: 0, decent: 0, bad: 0 }]));
  for (const row of rows) {
    const entry = byDay.get(row.day);
    if (entry && (row.result === "good" || row.result === "decent" || row.result === "bad"))
      entry[row.result] += Number(row.n);
  }
  return { from, to, project: options.project ?? null, days: [...byDay.values()] };
}

/** Each project's reports by their newest result, most reports first. */
export async function projectMixes(db: Db): Promise<ProjectMix[]> {
  const rows = await db
    .selectFrom("report_latest")
    .select([
      "project",
      sql<number>`count(*)`.as("reports"),
      sql<number>`sum(case when result = 'good' then 1 else 0 end)`.as("good"),
      sql<number>`sum(case when result = 'decent' then 1 else 0 end)`.as("decent"),
      sql<number>`sum(case when result = 'bad' then 1 else 0 end)`.as("bad"),
      sql<string | null>`max(generated_at)`.as("last_generated_at"),
    ])
    .groupBy("project")
    .execute();
  return rows
    .map((row) => ({
      project: row.project,
      reports: Number(row.reports),
      good: Number(row.good),
      decent: Number(row.decent),
      bad: Number(row.bad),
      last_generated_at: row.last_generated_at,
    }))
    .sort((a, b) => b.reports - a.reports || String(a.project).localeCompare(String(b.project)));
}

/**
 * A project on two days: each report's newest result up to the end of `from` and of `to`. Better and worse are
 * listed (worst change first); same is counted; new lists reports with a result on the later day only.
 */
export async function compareDays(db: Db, project: string, from: string, to: string): Promise<Compare> {
  const rows = await db
    .selectFrom("report_results")
    .select(["report_id", "url", "result", "generated_at", "day"])
    .where("project", "=", project)
    .where("day", "<=", to)
    .orderBy("generated_at", "asc")
    .execute();
  const reports = new Map<number, { url: string; from: ReportResult | null; to: ReportResult | null }>();
  for (const row of rows) {
    const entry = reports.get(row.report_id) ?? { url: row.url, from: null, to: null };
    const result = row.result as ReportResult;
    if (row.day <= from) entry.from = result;
    entry.to = result;
    entry.url = row.url;
    reports.set(row.report_id, entry);
  }
  const better: CompareRow[] = [];
  const worse: CompareRow[] = [];
  const added: CompareRow[] = [];
  let same = 0;
  for (const [reportId, entry] of reports) {
    if (entry.to === null) continue;
    if (entry.from === null) {
      added.push({ report_id: reportId, url: entry.url, from: null, to: entry.to, change: "new" });
      continue;
    }
    const step = RESULT_RANK[entry.to] - RESULT_RANK[entry.from];
    if (step === 0) same += 1;
    else
      (step > 0 ? worse : better).push({
        report_id: reportId,
        url: entry.url,
        from: entry.from,
        to: entry.to,
        change: step > 0 ? "worse" : "better",
      });
  }
  const bySize = (a: CompareRow, b: CompareRow) =>
    Math.abs(RESULT_RANK[b.to ?? "good"] - RESULT_RANK[b.from ?? "good"]) -
      Math.abs(RESULT_RANK[a.to ?? "good"] - RESULT_RANK[a.from ?? "good"]) || a.url.localeCompare(b.url);
  return {
    project,
    from,
    to,
    better: better.sort(bySize),
    worse: worse.sort(bySize),
    same,
    new: added.sort((a, b) => a.url.localeCompare(b.url)),
  };
}
