// Schedules and their runs in the store, on SQLite and PostgreSQL: the next run from the schedule, one run per
// due time whichever instance finds it, a manual run refused while one is under way, a run resumed where it got to.
import { describe, expect, it } from "vitest";

import {
  advanceSchedule,
  createRun,
  deleteSchedule,
  dueSchedules,
  finishRun,
  getRun,
  getSchedule,
  listRuns,
  pruneRuns,
  runsUnderWay,
  saveProgress,
  setSchedule,
} from "@/lib/reports/schedules";

import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const BACKENDS = bothBackends();

const T0 = new Date("2026-11-24T10:00:00.000Z");
const later = (ms: number) => new Date(T0.getTime() + ms);

describe.each<Backend>(BACKENDS)("schedules on $name", (backend) => {
  const store = useStore(backend);

  it("sets, replaces, disables and removes a schedule, with its next run", async () => {
    const { db } = store();
    expect(await getSchedule(db, "acme.io")).toBeNull();
    const set = await setSchedule(
      db,
      "acme.io",
      { enabled: true, frequency: "daily", time: "12:00", time_zone: "Europe/Berlin" },
      "ed@example.com",
      T0,
    );
    expect(set).toMatchObject({
      project: "acme.io",
      enabled: true,
      weekday: null,
      next_run_at: "2026-11-24T11:00:00.000Z",
      updated_by: "ed@example.com",
    });
    await setSchedule(
      db,
      "acme.io",
      { enabled: true, frequency: "weekly", weekday: 1, time: "06:00", time_zone: "UTC" },
      "ann@example.com",
      T0,
    );
    expect(await getSchedule(db, "acme.io")).toMatchObject({
      frequency: "weekly",
      weekday: 1,
      next_run_at: "2026-11-30T06:00:00.000Z",
      updated_by: "ann@example.com",
    });
    await setSchedule(
      db,
      "acme.io",
      { enabled: false, frequency: "daily", time: "06:00", time_zone: "UTC" },
      "ann@example.com",
      T0,
    );
    expect(await getSchedule(db, "acme.io")).toMatchObject({ enabled: false, next_run_at: null });
    expect(await dueSchedules(db, later(86_400_000 * 30))).toEqual([]);
    expect(await deleteSchedule(db, "acme.io")).toBe(true);
    expect(await deleteSchedule(db, "acme.io")).toBe(false);
  });

  it("creates one run per due time, moves the schedule on once, and refuses a second manual run while one runs", async () => {
    const { db } = store();
    await setSchedule(db, "acme.io", { enabled: true, frequency: "daily", time: "10:30", time_zone: "UTC" }, "ed", T0);
    expect(await dueSchedules(db, later(29 * 60_000))).toEqual([]);
    const [due] = await dueSchedules(db, later(30 * 60_000));
    expect(due?.next_run_at).toBe("2026-11-24T10:30:00.000Z");
    const dueAt = new Date(due!.next_run_at!);
    const first = await createRun(db, "acme.io", "schedule", dueAt, later(30 * 60_000)); // one instance
    const second = await createRun(db, "acme.io", "schedule", dueAt, later(30 * 60_000)); // another
    expect(first).toMatchObject({ status: "running", trigger: "schedule", due_at: dueAt.toISOString() });
    expect(second).toBeNull();
    await advanceSchedule(db, due!, later(30 * 60_000));
    await advanceSchedule(db, due!, later(31 * 60_000)); // the other instance, with the stale row: no second move
    expect((await getSchedule(db, "acme.io"))?.next_run_at).toBe("2026-11-25T10:30:00.000Z");

    expect(await createRun(db, "acme.io", "manual", later(60_000 * 31), later(60_000 * 31))).toBeNull();
    await finishRun(db, first!.id, "done", "Regenerated all 3 reports.", later(60_000 * 32));
    const manual = await createRun(db, "acme.io", "manual", later(60_000 * 33), later(60_000 * 33));
    expect(manual).not.toBeNull();
    expect((await listRuns(db, "acme.io")).map((r) => [r.trigger, r.status])).toEqual([
      ["manual", "running"],
      ["schedule", "done"],
    ]);
  });

  it("keeps where a run got to, for its job to resume there; an ended run takes no more progress", async () => {
    const { db } = store();
    const run = await createRun(db, "acme.io", "schedule", T0, T0);
    expect(await saveProgress(db, run!.id, { total: 10, done: 4, failed: 0, cursor: 44 })).toBe(true);
    expect(await runsUnderWay(db)).toEqual([run!.id]);
    expect(await getRun(db, run!.id)).toMatchObject({ id: run!.id, done: 4, total: 10, cursor: 44 });
    await finishRun(db, run!.id, "done", "ok", later(3));
    expect(await saveProgress(db, run!.id, { done: 5, failed: 0, cursor: 45 })).toBe(false);
    await finishRun(db, run!.id, "failed", "late", later(4)); // a late second job: the outcome stays
    expect(await getRun(db, run!.id)).toMatchObject({ status: "done", outcome: "ok", cursor: 44 });
    expect(await runsUnderWay(db)).toEqual([]);
    expect(await pruneRuns(db, 90, later(91 * 86_400_000))).toBe(1);
  });

  it("counts a run waiting for the budget as under way: no second manual run, kept from pruning, resumed by its job", async () => {
    const { db } = store();
    const run = await createRun(db, "acme.io", "manual", T0, T0);
    expect(await saveProgress(db, run!.id, { done: 0, failed: 0, cursor: 0 }, "waiting")).toBe(true);
    expect((await listRuns(db, "acme.io"))[0]).toMatchObject({ status: "waiting" });
    expect(await createRun(db, "acme.io", "manual", later(1000), later(1000))).toBeNull();
    expect(await pruneRuns(db, 90, later(91 * 86_400_000))).toBe(0);
    expect(await runsUnderWay(db)).toEqual([run!.id]);
    expect(await getRun(db, run!.id)).toMatchObject({ id: run!.id, status: "waiting" });
    expect(await saveProgress(db, run!.id, { done: 1, failed: 0, cursor: 1 })).toBe(true);
    expect((await listRuns(db, "acme.io"))[0]).toMatchObject({ status: "running", done: 1 });
  });
});
