// Recording results from the reports client's answers, against the sandbox: the answer passes untouched, a list
// of 100 is one insert after the answer (not 100 on the request path), a failing store is logged and never
// thrown, and a drop becomes an alert and a report.result_changed event.
import type { KyselyPlugin } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import type { Report } from "@/lib/contract/reports";
import type { Db } from "@/lib/db";
import { unreadAlertCount } from "@/lib/reports/alerts";
import { onReportEvent, type ReportEvent } from "@/lib/reports/events";
import { countHistory } from "@/lib/reports/history";
import { observed, recordReports, ResultRecorder } from "@/lib/reports/recorder";

import { CANARY } from "@/tests/support/canary";
import { harness, settings } from "@/tests/support/resilience";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { sqliteBackend, useStore } from "@/tests/support/store-backends";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports] } });
});
afterAll(async () => {
  await sandbox?.close();
});
afterEach(() => vi.restoreAllMocks());

/** Counts the INSERT statements a handle runs. */
function countingInserts(db: Db): { db: Db; inserts: () => number } {
  let inserts = 0;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (args.node.kind === "InsertQueryNode") inserts += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), inserts: () => inserts };
}

describe("observed client and ResultRecorder", () => {
  const store = useStore(sqliteBackend);

  it("passes the answer on and writes a page of 100 results in one insert after it", async () => {
    const counted = countingInserts(store().db);
    const recorder = new ResultRecorder(async () => counted.db);
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const client = observed(reports, recorder);
    const page = await client.listReports({ per_page: 100 });
    expect(page.data).toHaveLength(100);
    expect(await countHistory(store().db)).toBe(0); // nothing written on the request's way
    await recorder.flush();
    expect(await countHistory(store().db)).toBe(100);
    // One insert of history rows, then one per report's newest result (first seen).
    const historyInserts = counted.inserts() - 100;
    expect(historyInserts).toBe(1);

    // Seen again (a cached list): nothing is queued, so nothing is written.
    await client.listReports({ per_page: 100 });
    const before = counted.inserts();
    await recorder.flush();
    expect(counted.inserts() - before).toBe(0);
    expect(await countHistory(store().db)).toBe(100);
  });

  it("queues a result again when its write failed, and a new result of a report it has written", async () => {
    let storeUp = false;
    const recorder = new ResultRecorder(async () => {
      if (!storeUp) throw new Error("store is away");
      return store().db;
    });
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const client = observed(reports, recorder);
    await client.listReports({ per_page: 10 });
    await recorder.flush(); // fails: nothing remembered
    storeUp = true;
    const page = await client.listReports({ per_page: 10 });
    await recorder.flush();
    expect(await countHistory(store().db)).toBe(10);

    const first = page.data[0]!;
    await sandbox.setResult(first.id, {
      result: first.result === "bad" ? "good" : "bad",
      generated_at: new Date(Date.now() + 120_000).toISOString(),
      when: "now",
    });
    await client.listReports({ per_page: 10 });
    await recorder.flush();
    expect(await countHistory(store().db)).toBe(11);
  });

  it("records a show, a create and a regeneration with their sources", async () => {
    const recorder = new ResultRecorder(async () => store().db);
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const client = observed(reports, recorder);
    const created = await client.createReport({ url: "https://recorder.example/page", privacy: 0 });
    await client.getReport(created.id);
    // The sandbox's times have whole seconds: the regeneration is given a later one of its own.
    await sandbox.setResult(created.id, {
      result: created.result === "bad" ? "good" : "bad",
      generated_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await client.updateReport(created.id, { results: true });
    await recorder.flush();
    const rows = await store()
      .db.selectFrom("report_results")
      .select(["source", "result"])
      .where("report_id", "=", created.id)
      .orderBy("id")
      .execute();
    expect(rows.map((r) => r.source)).toEqual(["create", "regenerate"]);
  });

  it("writes a regeneration that answers another result with the same generated_at", async () => {
    const recorder = new ResultRecorder(async () => store().db);
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const client = observed(reports, recorder);
    const shown = await client.getReport(1);
    await recorder.flush();
    // The sandbox's times have whole seconds: a regeneration within one keeps the time and changes the result.
    const other = shown.result === "bad" ? "good" : "bad";
    await sandbox.setResult(shown.id, { result: other, generated_at: shown.generated_at! });
    await client.updateReport(shown.id, { results: true });
    await recorder.flush();
    const rows = await store()
      .db.selectFrom("report_results")
      .select(["source", "result"])
      .where("report_id", "=", shown.id)
      .execute();
    expect(rows).toEqual([{ source: "regenerate", result: other }]);
  });

  it("logs a failed write and never throws it to the caller", async () => {
    const log = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const recorder = new ResultRecorder(async () => {
      throw new Error("store is gone");
    });
    const { reports } = harness(sandbox);
    const page = await observed(reports, recorder).listReports({ per_page: 10 });
    expect(page.data).toHaveLength(10);
    await recorder.flush();
    expect(log.mock.calls.map(([line]) => String(line)).join("")).toContain("report_history_write_failed");
  });
});

describe("recordReports", () => {
  const store = useStore(sqliteBackend);
  const report = (result: Report["result"], generated_at: string): Report => ({
    id: 3,
    url: "https://acme.io/3",
    project: "acme.io",
    result,
    generated_at,
    privacy: 0,
  });

  it("makes a drop an alert and an event, once", async () => {
    const events: ReportEvent[] = [];
    const remove = onReportEvent((event) => void events.push(event));
    try {
      await recordReports(store().db, [report("good", "2026-11-01T00:00:00Z")], "list");
      await recordReports(store().db, [report("bad", "2026-11-02T00:00:00Z")], "show");
      await recordReports(store().db, [report("bad", "2026-11-02T00:00:00Z")], "list");
      expect(await unreadAlertCount(store().db)).toBe(1);
      expect(events).toEqual([
        expect.objectContaining({
          type: "report.result_changed",
          report_id: 3,
          from: "good",
          to: "bad",
          direction: "worse",
        }),
      ]);
    } finally {
      remove();
    }
  });
});
