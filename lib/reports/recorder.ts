// Seeing results on the request path without paying for it there: observed() wraps area A's client so that
// every report an answer carries is handed to the recorder, which gathers what arrives in one turn of the event
// loop and writes it in one batch after the answer has gone (an upsert: nothing when nothing is new). A result
// this process has written already is not queued again (a cached list costs no write); the same time with another
// result is a new one (a regeneration within the upstream's second). A failed write is logged, never the user's
// problem. Then the batch's drops become alerts and its changes events.
import "server-only";

import type { Report } from "@/lib/contract/reports";
import type { ResultSource } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import type { ReportsClient } from "@/lib/upstream";

import { createAlerts } from "./alerts";
import { emitReportEvent } from "./events";
import { isDrop, recordResults, resultsOf } from "./history";

/** Writes reports' results with their alerts and events; resolves when they are written (or the write failed). */
export async function recordReports(
  db: Db,
  reports: readonly Report[],
  source: ResultSource,
  now = new Date(),
): Promise<void> {
  const changes = await recordResults(db, resultsOf(reports), source, now);
  if (changes.length === 0) return;
  await createAlerts(db, changes, now);
  for (const change of changes) {
    await emitReportEvent({
      type: "report.result_changed",
      report_id: change.report_id,
      url: change.url,
      project: change.project,
      from: change.from,
      to: change.result,
      direction: isDrop(change.from, change.result) ? "worse" : "better",
      generated_at: change.generated_at,
    });
  }
}

/** Reports whose written result this process remembers, at most: past it, the memory starts again. */
const MAX_REMEMBERED = 100_000;

/** What makes a report's result another one: its time and the result itself. */
const sightOf = (report: Report): string => `${report.generated_at} ${report.result}`;

export class ResultRecorder {
  private pending = new Map<ResultSource, Report[]>();
  private scheduled: Promise<void> | null = null;
  /** Per report, the result last written from here (sightOf): a cached list seen again writes nothing. */
  private written = new Map<number, string>();

  constructor(private readonly db: () => Promise<Db>) {}

  /** Queues reports' results not written yet; the batch is written after the current turn (never awaited by the caller). */
  see(reports: readonly Report[], source: ResultSource): void {
    const fresh = reports.filter(
      (report) => report.generated_at !== null && this.written.get(report.id) !== sightOf(report),
    );
    if (fresh.length === 0) return;
    const queue = this.pending.get(source) ?? [];
    queue.push(...fresh);
    this.pending.set(source, queue);
    this.scheduled ??= runOutsideRequestContext(
      () =>
        new Promise<void>((resolve) => {
          setImmediate(() => void this.flush().finally(resolve));
        }),
    );
  }

  /** Writes what is queued now (tests and shutdown wait for it). */
  async flush(): Promise<void> {
    const batches = [...this.pending];
    this.pending = new Map();
    this.scheduled = null;
    for (const [source, reports] of batches) {
      try {
        await recordReports(await this.db(), reports, source);
        if (this.written.size > MAX_REMEMBERED) this.written.clear();
        for (const report of reports) this.written.set(report.id, sightOf(report));
      } catch (error) {
        logEvent("error", "report_history_write_failed", {
          source,
          reports: reports.length,
          error: describeError(error),
        });
      }
    }
  }
}

/** Area A's client, every answer's results handed to `recorder` (the answer itself is passed on untouched). */
export function observed(client: ReportsClient, recorder: Pick<ResultRecorder, "see">): ReportsClient {
  return {
    ...client,
    async listReports(query) {
      const page = await client.listReports(query);
      recorder.see(page.data, "list");
      return page;
    },
    async getReport(id) {
      const report = await client.getReport(id);
      recorder.see([report], "show");
      return report;
    },
    async createReport(input) {
      const report = await client.createReport(input);
      recorder.see([report], "create");
      return report;
    },
    async updateReport(id, input) {
      const report = await client.updateReport(id, input);
      recorder.see([report], input.results ? "regenerate" : "update");
      return report;
    },
  };
}
