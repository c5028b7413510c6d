// The schedule runner in this process, against the sandbox over HTTP through the real reports client, with a
// test clock: a schedule fires at its time and not before, regenerates every report of its project paced to its
// share of the budget, records what it saw (history and alerts), and is skipped while the breaker is open.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { Report } from "@/lib/contract/reports";
import { listAlerts } from "@/lib/reports/alerts";
import { reportHistory } from "@/lib/reports/history";
import { recordReports } from "@/lib/reports/recorder";
import { callInterval, callsPerRun, runDueSchedules, type ScheduleRunnerDeps } from "@/lib/reports/schedule-runner";
import { getSchedule, listRuns, setSchedule } from "@/lib/reports/schedules";
import type { Store } from "@/lib/db";
import type { ReportsClient } from "@/lib/upstream";

import { CANARY } from "@/tests/support/canary";
import { harness, settings } from "@/tests/support/resilience";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const PROJECT = "harbor-dental.com";
const T0 = new Date("2026-11-24T10:00:00.000Z");
const later = (ms: number) => new Date(T0.getTime() + ms);

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports] } });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.reset();
});

describe("callsPerRun and callInterval", () => {
  it("spend the share of the budget, never nothing", () => {
    expect(callsPerRun(60, 0.5)).toBe(30);
    expect(callInterval(30)).toBe(2000);
    expect(callInterval(callsPerRun(1, 0.001))).toBe(3_600_000);
  });
});

describe("runDueSchedules", () => {
  const store = useStore(sqliteBackend);
  let sleeps: number[];
  const deps = (db: Store["db"], reports: ReportsClient | null, breakerOpen = () => false): ScheduleRunnerDeps => ({
    db,
    reports,
    breakerOpen,
    callsPerMinute: callsPerRun(60, 0.5),
    record: (seen: readonly Report[]) => recordReports(db, seen, "schedule", later(30 * 60_000)),
    owner: "test-instance",
    now: () => later(30 * 60_000),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  beforeEach(() => {
    sleeps = [];
  });

  it("fires at its time with the test clock, regenerates the project's reports paced to its share, and records what it saw", async () => {
    const { db } = store();
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const first = await reports.listReports({ project: PROJECT, per_page: 100 });
    await recordReports(db, first.data, "list", T0);
    const [target] = first.data;
    // The report's next regeneration drops it to bad (or from bad, rises to good: a change either way).
    await sandbox.setResult(target!.id, { result: target!.result === "bad" ? "good" : "bad" });
    await setSchedule(db, PROJECT, { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed@example.com", T0);
    await sandbox.clearRequests();

    expect(await runDueSchedules(later(29 * 60_000), deps(db, reports))).toEqual([]);
    expect(await sandbox.requests()).toEqual([]);

    const [run] = await runDueSchedules(later(30 * 60_000), deps(db, reports));
    expect(run).toMatchObject({ project: PROJECT, trigger: "schedule", status: "done", total: 12, done: 12, failed: 0, outcome: "Regenerated all 12 reports." });
    const calls = await sandbox.requests();
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(1);
    expect(calls.filter((c) => c.method === "PUT").map((c) => c.form)).toEqual(Array.from({ length: 12 }, () => ({ results: "1" })));
    // 13 calls, 2 s apart: 30 a minute, half of a budget of 60.
    expect(sleeps).toEqual(Array.from({ length: 12 }, () => 2000));
    expect((await getSchedule(db, PROJECT))?.next_run_at).toBe("2026-11-25T10:30:00.000Z");
    expect((await listRuns(db, PROJECT))[0]).toMatchObject({ id: run!.id, status: "done", finished_at: later(30 * 60_000).toISOString() });

    const history = await reportHistory(db, target!.id, 400);
    expect(history.entries[0]).toMatchObject({ source: "schedule", previous_result: target!.result, change: target!.result === "bad" ? "better" : "worse" });
    const alerts = await listAlerts(db, { project: PROJECT });
    expect(alerts.data.some((a) => a.report_id === target!.id)).toBe(target!.result !== "bad");

    // The same due time again (another instance, a late tick): nothing runs twice.
    expect(await runDueSchedules(later(30 * 60_000), deps(db, reports))).toEqual([]);
  });

  it("cuts a long pause into slices and renews the run's lease after each, so no other process takes the run over", async () => {
    const { db } = store();
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    await setSchedule(db, PROJECT, { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed", T0);
    // The test clock moves with every pause; at each slice's end the lease must still be ahead of it.
    let clock = later(30 * 60_000).getTime();
    const lapses: string[] = [];
    const slow = {
      ...deps(db, reports),
      callsPerMinute: 1, // a minute between calls: longer than a lease
      now: () => new Date(clock),
      sleep: async (ms: number) => {
        sleeps.push(ms);
        clock += ms;
        const row = await db.selectFrom("report_schedule_runs").select("lease_until").executeTakeFirstOrThrow();
        if (!row.lease_until || row.lease_until <= new Date(clock).toISOString()) lapses.push(`${new Date(clock).toISOString()}: lease until ${row.lease_until}`);
      },
    };
    const [run] = await runDueSchedules(later(30 * 60_000), slow);
    expect(run).toMatchObject({ status: "done", total: 12, done: 12 });
    expect(sleeps).toEqual(Array.from({ length: 12 * 3 }, () => 20_000));
    expect(lapses).toEqual([]);
  });

  it("skips a run while the breaker is open and says so; the schedule still moves on", async () => {
    const { db } = store();
    const { reports } = harness(sandbox);
    await setSchedule(db, PROJECT, { enabled: true, frequency: "weekly", weekday: 2, time: "10:30", time_zone: "UTC" }, "ed", T0);
    await sandbox.clearRequests();
    const [run] = await runDueSchedules(later(30 * 60_000), deps(db, reports, () => true));
    expect(run).toMatchObject({ status: "skipped", done: 0 });
    expect(run!.outcome).toMatch(/circuit breaker for it is open.*next run is at 2026-12-01T10:30:00.000Z/);
    expect(await sandbox.requests()).toEqual([]);
  });

  it("with a real breaker: a run that fails opens it, and the next due run is skipped without a call", async () => {
    const { db } = store();
    const { reports, resilience } = harness(sandbox, { settings: settings({ retries: 0, breaker: { failureThreshold: 1, openMs: 3_600_000 }, ttlMs: { reports: 0 } }) });
    const breakerOpen = () => resilience.breakerStatus("reports").state === "open";
    await setSchedule(db, PROJECT, { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed", T0);
    await sandbox.injectFault({ path: "/seo/api/v1/reports", kind: "status", status: 503 });
    const [failed] = await runDueSchedules(later(30 * 60_000), deps(db, reports, breakerOpen));
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed!.outcome).toMatch(/^Could not list the project's reports: the reports API/);
    expect(breakerOpen()).toBe(true);

    await sandbox.clearRequests();
    const [skipped] = await runDueSchedules(new Date("2026-11-25T10:30:00.000Z"), deps(db, reports, breakerOpen));
    expect(skipped).toMatchObject({ status: "skipped" });
    expect(await sandbox.requests()).toEqual([]);
  });

  it("skips when the reports API is not configured", async () => {
    const { db } = store();
    await setSchedule(db, PROJECT, { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed", T0);
    const [run] = await runDueSchedules(later(30 * 60_000), deps(db, null));
    expect(run).toMatchObject({ status: "skipped", outcome: expect.stringMatching(/^Skipped: the reports API is not configured/) });
  });
});
