// The schedules' jobs (the tick and the run, their handlers called as the provider would), against the sandbox over
// HTTP through the real reports client, with a test clock (Date faked, moved by the runner's pauses; the budget's
// limiter reads it too): the tick keeps its chain and queues each run under way once; a schedule fires at its time
// and not before, regenerates every report of its project within the reports area's budget (many runs at once, and
// two instances on one Redis, never exceed it in any minute), records what it saw (history and alerts), and is
// skipped while the breaker is open.
import { setImmediate as nextTurn } from "node:timers/promises";

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import type { Run } from "@/lib/contract/history";
import type { Report } from "@/lib/contract/reports";
import { backgroundCallsPerMinute, newAreaBudget } from "@/lib/jobs/budget";
import type { JobProvider } from "@/lib/jobs";
import { startStoreJobs } from "@/lib/jobs/store";
import { listAlerts } from "@/lib/reports/alerts";
import { reportHistory } from "@/lib/reports/history";
import { recordReports } from "@/lib/reports/recorder";
import { scheduleRunJob, scheduleTickJob, TICK_MS, tickJob, type ScheduleJobsDeps } from "@/lib/reports/schedule-jobs";
import { runOne, type ScheduleRunnerDeps } from "@/lib/reports/schedule-runner";
import { createRun, getRun, getSchedule, listRuns, setSchedule } from "@/lib/reports/schedules";
import { localCluster, type Cluster } from "@/lib/cluster";
import type { Store } from "@/lib/db";
import type { ReportsClient } from "@/lib/upstream";

import { CANARY } from "@/tests/support/canary";
import { harness, settings } from "@/tests/support/resilience";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { sqliteBackend, useStore } from "@/tests/support/store-backends";
import { until } from "@/tests/support/until";
import { useTestRedis } from "@/tests/support/use-redis";
import { busiestWindow } from "@/tests/support/windows";

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

/** The jobs' deps around a run's deps, at `now`; what they queue goes into `queued`. */
function jobsAt(now: Date, runner: ScheduleRunnerDeps, queued: { ticks: string[]; runs: string[] }): ScheduleJobsDeps {
  return {
    db: async () => runner.db,
    runner: async () => runner,
    queueTick: async (_payload, { id }) => void queued.ticks.push(id),
    queueRun: async ({ runId }) => void queued.runs.push(runId),
    now: () => now,
  };
}

/** A tick at `now`, then the job of each run it queued, as the provider would run them: the runs as they ended. */
async function tickAt(now: Date, runner: ScheduleRunnerDeps): Promise<Run[]> {
  const queued = { ticks: [], runs: [] as string[] };
  const deps = jobsAt(now, runner, queued);
  await scheduleTickJob(deps).handle(tickJob(now.getTime()).payload, { id: "tick", retries: 0 });
  for (const runId of queued.runs) await scheduleRunJob(deps).handle({ runId }, { id: runId, retries: 0 });
  const ended = await Promise.all(queued.runs.map((runId) => getRun(runner.db, runId)));
  return ended.map((run) => {
    const { cursor: _cursor, ...shown } = run!;
    return shown;
  });
}

/**
 * A clock for runs that go at once: a pause ends only when every run is pausing (none has a call or a write in
 * flight), and then the clock jumps to the earliest pause's end, as time would pass. Date is faked (vi).
 */
function sharedClock() {
  let active = 0;
  const sleepers: { wake: number; go: () => void }[] = [];
  const settle = () => {
    if (active === 0 || sleepers.length < active) return;
    const wake = Math.min(...sleepers.map((s) => s.wake));
    if (wake > Date.now()) vi.setSystemTime(wake);
    for (const sleeper of sleepers.filter((s) => s.wake <= wake)) {
      sleepers.splice(sleepers.indexOf(sleeper), 1);
      sleeper.go();
    }
  };
  return {
    sleep: (ms: number) =>
      new Promise<void>((go) => {
        sleepers.push({ wake: Date.now() + ms, go });
        settle();
      }),
    async run<T>(work: () => Promise<T>): Promise<T> {
      active += 1;
      try {
        return await work();
      } finally {
        active -= 1;
        settle();
      }
    },
  };
}

describe("the schedules' jobs", () => {
  const store = useStore(sqliteBackend);
  let sleeps: number[];
  /**
   * The test clock: Date is faked, and a pause moves it to the pause's end (runs pausing at once wake at the same
   * time, as they would). The budget's limiter reads Date, so it follows the clock.
   */
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    const wake = Date.now() + ms;
    await nextTurn();
    if (wake > Date.now()) vi.setSystemTime(wake);
  };
  const deps = (
    db: Store["db"],
    reports: ReportsClient | null,
    breakerOpen = () => false,
    callsPerMinute = backgroundCallsPerMinute(60, 0.5),
  ): ScheduleRunnerDeps => ({
    db,
    reports,
    breakerOpen,
    budget: newAreaBudget("reports", callsPerMinute, localCluster("test-instance")),
    record: (seen: readonly Report[]) => recordReports(db, seen, "schedule", later(30 * 60_000)),
    now: () => new Date(),
    sleep,
  });
  beforeEach(() => {
    sleeps = [];
    vi.useFakeTimers({ toFake: ["Date"], now: later(30 * 60_000) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fires at its time with the test clock, regenerates the project's reports paced to its share, and records what it saw", async () => {
    const { db } = store();
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const first = await reports.listReports({ project: PROJECT, per_page: 100 });
    await recordReports(db, first.data, "list", T0);
    const [target] = first.data;
    // The report's next regeneration drops it to bad (or from bad, rises to good: a change either way).
    await sandbox.setResult(target!.id, { result: target!.result === "bad" ? "good" : "bad" });
    await setSchedule(
      db,
      PROJECT,
      { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" },
      "ed@example.com",
      T0,
    );
    await sandbox.clearRequests();

    expect(await tickAt(later(29 * 60_000), deps(db, reports))).toEqual([]);
    expect(await sandbox.requests()).toEqual([]);

    const [run] = await tickAt(later(30 * 60_000), deps(db, reports));
    expect(run).toMatchObject({
      project: PROJECT,
      trigger: "schedule",
      status: "done",
      total: 12,
      done: 12,
      failed: 0,
      outcome: "Regenerated all 12 reports.",
    });
    const calls = await sandbox.requests();
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(1);
    expect(calls.filter((c) => c.method === "PUT").map((c) => c.form)).toEqual(
      Array.from({ length: 12 }, () => ({ results: "1" })),
    );
    // 13 calls, 2 s apart: 30 a minute, half of a budget of 60.
    expect(sleeps).toEqual(Array.from({ length: 12 }, () => 2000));
    expect((await getSchedule(db, PROJECT))?.next_run_at).toBe("2026-11-25T10:30:00.000Z");
    expect((await listRuns(db, PROJECT))[0]).toMatchObject({
      id: run!.id,
      status: "done",
      finished_at: later(30 * 60_000 + 12 * 2000).toISOString(),
    });

    const history = await reportHistory(db, target!.id, 400);
    expect(history.entries[0]).toMatchObject({
      source: "schedule",
      previous_result: target!.result,
      change: target!.result === "bad" ? "better" : "worse",
    });
    const alerts = await listAlerts(db, { project: PROJECT });
    expect(alerts.data.some((a) => a.report_id === target!.id)).toBe(target!.result !== "bad");

    // The same due time again (another instance, a late tick): nothing runs twice.
    expect(await tickAt(later(30 * 60_000), deps(db, reports))).toEqual([]);
  });

  it("waits for a slot in one pause, however long (the job's lease is the provider's to keep), and ends the run", async () => {
    const { db } = store();
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    await setSchedule(db, PROJECT, { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed", T0);
    const [run] = await tickAt(
      later(30 * 60_000),
      deps(db, reports, () => false, 1),
    ); // a minute between calls
    expect(run).toMatchObject({ status: "done", total: 12, done: 12 });
    expect(sleeps).toEqual(Array.from({ length: 12 }, () => 60_000));
  });

  it("keeps the chain of ticks, one job per slot, and queues each run under way (a lost trigger's too) again", async () => {
    const { db } = store();
    const queued = { ticks: [] as string[], runs: [] as string[] };
    const runner = deps(db, null);
    const slot = Date.parse("2026-11-24T10:30:00.000Z");
    expect(tickJob(slot + TICK_MS - 1).options).toEqual({ id: `report-schedule-tick-${slot}`, runAt: new Date(slot) });
    await setSchedule(db, PROJECT, { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed", T0);
    const manual = await createRun(db, "acme-tools.io", "manual", T0, T0); // its trigger lost
    await scheduleTickJob(jobsAt(new Date(slot + 5_000), runner, queued)).handle({ slot }, { id: "t", retries: 0 });
    // Run late (two slots on), a tick queues the slot after now, never its own again.
    await scheduleTickJob(jobsAt(new Date(slot + 65_000), runner, queued)).handle({ slot }, { id: "t", retries: 0 });
    expect(queued.ticks).toEqual([
      `report-schedule-tick-${slot + TICK_MS}`,
      `report-schedule-tick-${slot + 3 * TICK_MS}`,
    ]);
    const [scheduled] = await listRuns(db, PROJECT);
    expect(scheduled).toMatchObject({ trigger: "schedule", status: "running" });
    expect(queued.runs.sort()).toEqual([manual!.id, manual!.id, scheduled!.id, scheduled!.id].sort());
    // The run's job again after its run ended: nothing more.
    await scheduleRunJob(jobsAt(new Date(slot), runner, queued)).handle(
      { runId: scheduled!.id },
      { id: "r", retries: 0 },
    );
    const ended = await getRun(db, scheduled!.id);
    expect(ended).toMatchObject({ status: "skipped" });
    await scheduleRunJob(jobsAt(new Date(slot), runner, queued)).handle(
      { runId: scheduled!.id },
      { id: "r", retries: 0 },
    );
    expect(await getRun(db, scheduled!.id)).toEqual(ended);
  });

  it("shares one budget among runs started at once: no minute holds more calls than it allows, and a run waiting for it says so", async () => {
    const { db } = store();
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const projects = [
      "harbor-dental.com",
      "acme-tools.io",
      "pixelforge.studio",
      "atlas-legal.fr",
      "bluefin-sailing.org",
    ];
    const clock = sharedClock();
    const seen = new Set<string>();
    const shared = {
      ...deps(db, reports), // one budget: 30 calls a minute, half of 60
      sleep: async (ms: number) => {
        for (const row of await db.selectFrom("report_schedule_runs").select(["project", "status"]).execute())
          seen.add(`${row.project}: ${row.status}`);
        await clock.sleep(ms);
      },
    };
    await sandbox.clearRequests();
    const runs = await Promise.all(projects.map((project) => createRun(db, project, "manual", new Date(), new Date())));
    const ended = await Promise.all(runs.map((run) => clock.run(() => runOne({ ...run!, cursor: 0 }, shared))));

    expect(ended.map((run) => run.status)).toEqual(projects.map(() => "done"));
    const calls = await sandbox.requests();
    expect(calls).toHaveLength(ended.reduce((sum, run) => sum + 1 + (run.total ?? 0), 0)); // a list and a regeneration each
    expect(calls.length).toBeGreaterThan(30);
    expect(
      busiestWindow(
        calls.map((call) => Date.parse(call.at)),
        60_000,
      ),
    ).toBe(30);
    // Every run but the one that took the first slot said, at least once, that it was waiting for the budget.
    expect(projects.filter((project) => seen.has(`${project}: waiting`)).length).toBeGreaterThanOrEqual(
      projects.length - 1,
    );
  });

  it("skips a run while the breaker is open and says so; the schedule still moves on", async () => {
    const { db } = store();
    const { reports } = harness(sandbox);
    await setSchedule(
      db,
      PROJECT,
      { enabled: true, frequency: "weekly", weekday: 2, time: "10:30", time_zone: "UTC" },
      "ed",
      T0,
    );
    await sandbox.clearRequests();
    const [run] = await tickAt(
      later(30 * 60_000),
      deps(db, reports, () => true),
    );
    expect(run).toMatchObject({ status: "skipped", done: 0 });
    expect(run!.outcome).toMatch(/circuit breaker for it is open.*next run is at 2026-12-01T10:30:00.000Z/);
    expect(await sandbox.requests()).toEqual([]);
  });

  it("with a real breaker: a run that fails opens it, and the next due run is skipped without a call", async () => {
    const { db } = store();
    const { reports, resilience } = harness(sandbox, {
      settings: settings({ retries: 0, breaker: { failureThreshold: 1, openMs: 3_600_000 }, ttlMs: { reports: 0 } }),
    });
    const breakerOpen = () => resilience.breakerStatus("reports").state === "open";
    await setSchedule(db, PROJECT, { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed", T0);
    await sandbox.injectFault({ path: "/seo/api/v1/reports", kind: "status", status: 503 });
    const [failed] = await tickAt(later(30 * 60_000), deps(db, reports, breakerOpen));
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed!.outcome).toMatch(/^Could not list the project's reports: the reports API/);
    expect(breakerOpen()).toBe(true);

    await sandbox.clearRequests();
    const [skipped] = await tickAt(new Date("2026-11-25T10:30:00.000Z"), deps(db, reports, breakerOpen));
    expect(skipped).toMatchObject({ status: "skipped" });
    expect(await sandbox.requests()).toEqual([]);
  });

  it("skips when the reports API is not configured", async () => {
    const { db } = store();
    await setSchedule(db, PROJECT, { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed", T0);
    const [run] = await tickAt(later(30 * 60_000), deps(db, null));
    expect(run).toMatchObject({
      status: "skipped",
      outcome: expect.stringMatching(/^Skipped: the reports API is not configured/),
    });
  });
});

describe("on the store's provider", () => {
  const store = useStore(sqliteBackend);
  const providers: JobProvider[] = [];
  afterEach(async () => {
    await Promise.all(providers.splice(0).map((provider) => provider.stop()));
  });

  it("two instances triggering one slot make one tick, whose run job regenerates the due schedule once", async () => {
    const { db } = store();
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const runner: ScheduleRunnerDeps = {
      db,
      reports,
      breakerOpen: () => false,
      budget: newAreaBudget("reports", 60_000, localCluster("test-instance")),
      record: (seen) => recordReports(db, seen, "schedule"),
    };
    /** One instance: its provider running both kinds, which trigger on it. */
    const instance = (): JobProvider => {
      const deps: ScheduleJobsDeps = {
        db: async () => db,
        runner: async () => runner,
        queueTick: (payload, options) => provider.trigger("report-schedule-tick", payload, options),
        queueRun: (payload, options) => provider.trigger("report-schedule-run", payload, options),
      };
      const provider = startStoreJobs(async () => db, [scheduleTickJob(deps), scheduleRunJob(deps)]);
      providers.push(provider);
      return provider;
    };
    await setSchedule(db, PROJECT, { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed");
    const dueAt = new Date(Date.now() - 1_000).toISOString();
    await db.updateTable("report_schedules").set({ next_run_at: dueAt }).execute();
    await sandbox.clearRequests();

    const first = tickJob(Date.now());
    for (const provider of [instance(), instance()])
      await provider.trigger("report-schedule-tick", first.payload, first.options);
    const [run] = await until(async () => {
      const runs = await listRuns(db, PROJECT);
      return runs[0]?.status === "done" && runs;
    }, "the scheduled run done");
    expect(run).toMatchObject({ trigger: "schedule", due_at: dueAt, total: 12, done: 12 });
    expect((await listRuns(db, PROJECT)).length).toBe(1);
    expect((await sandbox.requests()).filter((call) => call.method === "PUT")).toHaveLength(12);
    // What is left: the next tick, once (the run's job ended with its run).
    await until(
      async () =>
        (await db.selectFrom("jobs").select("kind").execute()).every((job) => job.kind === "report-schedule-tick"),
      "the run's job gone",
    );
    const left = await db.selectFrom("jobs").select(["id", "payload"]).execute();
    expect(left).toHaveLength(1);
    const { slot } = JSON.parse(left[0]!.payload) as { slot: number };
    expect(left[0]!.id).toBe(tickJob(slot).options.id);
    expect(slot).toBeGreaterThan(first.payload.slot); // the next slot's (or, the tick having run late, the one after)
  });
});

describe("the budget across instances", () => {
  const store = useStore(sqliteBackend);
  const { instance } = useTestRedis();

  it("holds for two instances sharing Redis: their runs together keep its pace", async () => {
    const { db } = store();
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    const callsPerMinute = backgroundCallsPerMinute(120, 0.5); // 60 a minute: a call a second
    const instances = [instance("schedule-a"), instance("schedule-b")];
    await until(() => instances.every((cluster) => cluster.up()), "both instances connected to Redis");
    const onInstance = (cluster: Cluster): ScheduleRunnerDeps => ({
      db,
      reports,
      breakerOpen: () => false,
      budget: newAreaBudget("reports", callsPerMinute, cluster),
      record: (seen) => recordReports(db, seen, "schedule"),
    });
    const work = [
      ["schedule-a", "harbor-dental.com"],
      ["schedule-b", "pixelforge.studio"],
    ] as const;
    await sandbox.clearRequests();
    const ended = await Promise.all(
      work.map(async ([, project], index) => {
        const run = await createRun(db, project, "manual", new Date());
        return runOne({ ...run!, cursor: 0 }, onInstance(instances[index]!));
      }),
    );
    expect(ended.map((run) => run.status)).toEqual(work.map(() => "done"));
    const times = (await sandbox.requests()).map((call) => Date.parse(call.at));
    expect(times).toHaveLength(ended.reduce((sum, run) => sum + 1 + (run.total ?? 0), 0));
    // A call a second at most: any 10 s hold at most 10 calls, 11 when a call's way from Gatehouse to the sandbox
    // was slower than the next one's (with a budget per instance, the two made 20).
    expect(busiestWindow(times, 10_000)).toBeLessThanOrEqual(11);
    expect(busiestWindow(times, 60_000)).toBeLessThanOrEqual(60);
  }, 120_000);
});
