// The result history: every result Gatehouse sees, once per (report, generated_at). Writes are one statement per
// batch (an upsert on that key), so a list of 100 reports is one insert, and seeing a result again writes nothing.
// The upstream's times may have whole seconds, so a regeneration can answer another result with the same time: the
// row then takes the newer result (last seen wins), and for the newest row that is a change like a new row's. Each
// report's newest result is kept beside the history (report_latest): what a project's mix counts and what a new
// result is compared with to find a drop.
import "server-only";

import { sql } from "kysely";

import type { HistoryEntry, ReportHistory } from "@/lib/contract/history";
import type { Report } from "@/lib/contract/reports";
import { RESULT_RANK, type ReportResult, type ResultSource } from "@/lib/contract/values";
import type { Db } from "@/lib/db";

/** One result as a report carried it. */
export interface SeenResult {
  report_id: number;
  url: string;
  project: string | null;
  result: ReportResult;
  generated_at: string;
}

/** A recorded result that differs from the report's result before it (what alerts and events are made of). */
export interface ResultChange extends SeenResult {
  history_id: number;
  from: ReportResult;
}

/** The results a batch of reports carries: reports without generated_at have none yet, duplicates count once. */
export function resultsOf(reports: readonly Report[]): SeenResult[] {
  const seen = new Map<string, SeenResult>();
  for (const report of reports) {
    if (report.generated_at === null) continue;
    const generatedAt = new Date(report.generated_at).toISOString();
    seen.set(`${report.id} ${generatedAt}`, {
      report_id: report.id,
      url: report.url,
      project: report.project,
      result: report.result,
      generated_at: generatedAt,
    });
  }
  return [...seen.values()];
}

/** The UTC calendar day of an ISO time: what the trends group by. */
export const dayOf = (iso: string): string => iso.slice(0, 10);

/** Rows per insert: 9 parameters each, far below either store's limit. */
const CHUNK = 200;

/**
 * Records results (one upsert per chunk) and moves each report's newest result forward. Returns the results that
 * changed a report's newest one: a newer result, or the newest one's time with another result. A result seen
 * before, or older than the newest, changes nothing.
 */
export async function recordResults(
  db: Db,
  results: readonly SeenResult[],
  source: ResultSource,
  now = new Date(),
): Promise<ResultChange[]> {
  const changes: ResultChange[] = [];
  for (let start = 0; start < results.length; start += CHUNK) {
    changes.push(...(await recordChunk(db, results.slice(start, start + CHUNK), source, now)));
  }
  return changes;
}

async function recordChunk(
  db: Db,
  results: readonly SeenResult[],
  source: ResultSource,
  now: Date,
): Promise<ResultChange[]> {
  if (results.length === 0) return [];
  const seenAt = now.toISOString();
  const written = await db
    .insertInto("report_results")
    .values(results.map((r) => ({ ...r, day: dayOf(r.generated_at), seen_at: seenAt, source })))
    // The same time with another result: the newer sight replaces the row (and is returned, as a new row is).
    .onConflict((conflict) =>
      conflict
        .columns(["report_id", "generated_at"])
        .doUpdateSet(({ ref }) => ({
          url: ref("excluded.url"),
          project: ref("excluded.project"),
          result: ref("excluded.result"),
          seen_at: ref("excluded.seen_at"),
          source: ref("excluded.source"),
        }))
        .where(({ eb, ref }) => eb("report_results.result", "<>", ref("excluded.result"))),
    )
    .returning(["id", "report_id", "generated_at"])
    .execute();
  if (written.length === 0) return [];

  const ids = [...new Set(written.map((row) => row.report_id))];
  const latest = new Map(
    (await db.selectFrom("report_latest").selectAll().where("report_id", "in", ids).execute()).map((row) => [
      row.report_id,
      row,
    ]),
  );
  const byKey = new Map(results.map((r) => [`${r.report_id} ${r.generated_at}`, r]));
  const changes: ResultChange[] = [];
  // Oldest first, so that two new results of one report in a batch compare with each other.
  for (const row of [...written].sort((a, b) => a.generated_at.localeCompare(b.generated_at))) {
    const result = byKey.get(`${row.report_id} ${row.generated_at}`);
    if (!result) continue;
    const before = latest.get(row.report_id);
    if (before && before.generated_at > result.generated_at) continue; // an older result, seen late: history only
    if (before && before.result !== result.result)
      changes.push({ ...result, history_id: row.id, from: before.result as ReportResult });
    const next = {
      report_id: row.report_id,
      url: result.url,
      project: result.project,
      result: result.result,
      generated_at: result.generated_at,
      history_id: row.id,
    };
    latest.set(row.report_id, next);
    await db
      .insertInto("report_latest")
      .values(next)
      .onConflict((conflict) =>
        conflict
          .column("report_id")
          .doUpdateSet({
            url: next.url,
            project: next.project,
            result: next.result,
            generated_at: next.generated_at,
            history_id: next.history_id,
          })
          .where("report_latest.generated_at", "<=", next.generated_at),
      )
      .execute();
  }
  return changes;
}

/** Whether a change is a drop: good → decent or bad, decent → bad. */
export function isDrop(from: ReportResult, to: ReportResult): boolean {
  return RESULT_RANK[to] > RESULT_RANK[from];
}

function changeOf(previous: ReportResult | null, result: ReportResult): HistoryEntry["change"] {
  if (previous === null) return "first";
  if (previous === result) return "same";
  return isDrop(previous, result) ? "worse" : "better";
}

/** A report's results, newest first, each with the change from the one before (at most `limit`). */
export async function reportHistory(
  db: Db,
  reportId: number,
  retentionDays: number,
  limit = 500,
): Promise<ReportHistory> {
  const rows = await db
    .selectFrom("report_results")
    .select(["url", "project", "result", "generated_at", "seen_at", "source"])
    .where("report_id", "=", reportId)
    .orderBy("generated_at", "desc")
    .limit(limit + 1)
    .execute();
  const entries: HistoryEntry[] = rows.slice(0, limit).map((row, index) => {
    const previous = (rows[index + 1]?.result as ReportResult | undefined) ?? null;
    const result = row.result as ReportResult;
    return {
      result,
      generated_at: row.generated_at,
      seen_at: row.seen_at,
      source: row.source as HistoryEntry["source"],
      previous_result: previous,
      change: changeOf(previous, result),
    };
  });
  return {
    report_id: reportId,
    url: rows[0]?.url ?? null,
    project: rows[0]?.project ?? null,
    entries,
    retention_days: retentionDays,
  };
}

/**
 * Deletes results (and their alerts) older than the retention, in chunks so that no statement holds the store
 * long; a report's newest result stays in report_latest even when its history row goes. Returns the rows deleted.
 */
export async function pruneHistory(db: Db, retentionDays: number, now = new Date(), chunk = 5000): Promise<number> {
  const cutoff = dayOf(new Date(now.getTime() - retentionDays * 86_400_000).toISOString());
  let removed = 0;
  for (;;) {
    const ids = (
      await db.selectFrom("report_results").select("id").where("day", "<", cutoff).limit(chunk).execute()
    ).map((row) => row.id);
    if (ids.length === 0) break;
    await db.deleteFrom("report_alerts").where("history_id", "in", ids).execute();
    const result = await db.deleteFrom("report_results").where("id", "in", ids).executeTakeFirst();
    removed += Number(result.numDeletedRows);
    if (ids.length < chunk) break;
  }
  return removed;
}

/** How many results are recorded (for tests and the benchmark). */
export async function countHistory(db: Db): Promise<number> {
  const row = await db
    .selectFrom("report_results")
    .select(sql<number>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
