// Schedules and their runs in the store, on SQLite and PostgreSQL: the next run from the schedule, one run per
// due time whichever instance finds it, a manual run refused while one is running, leases taken over.
import { describe, expect, it } from "vitest";

import {
  advanceSchedule,
  claimStaleRun,
  createRun,
  deleteSchedule,
  dueSchedules,
  finishRun,
  getSchedule,
  listRuns,
  pruneRuns,
  RUN_LEASE_MS,
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
    const first = await createRun(db, "acme.io", "schedule", dueAt, "instance-a", later(30 * 60_000));
    const second = await createRun(db, "acme.io", "schedule", dueAt, "instance-b", later(30 * 60_000));
    expect(first).toMatchObject({ status: "running", trigger: "schedule", due_at: dueAt.toISOString() });
    expect(second).toBeNull();
    await advanceSchedule(db, due!, later(30 * 60_000));
    await advanceSchedule(db, due!, later(31 * 60_000)); // the other instance, with the stale row: no second move
    expect((await getSchedule(db, "acme.io"))?.next_run_at).toBe("2026-11-25T10:30:00.000Z");

    expect(await createRun(db, "acme.io", "manual", later(60_000 * 31), "instance-a", later(60_000 * 31))).toBeNull();
    await finishRun(db, first!.id, "instance-a", "done", "Regenerated all 3 reports.", later(60_000 * 32));
    const manual = await createRun(db, "acme.io", "manual", later(60_000 * 33), "instance-a", later(60_000 * 33));
    expect(manual).not.toBeNull();
    expect((await listRuns(db, "acme.io")).map((r) => [r.trigger, r.status])).toEqual([
      ["manual", "running"],
      ["schedule", "done"],
    ]);
  });

  it("lets another process take over a run whose lease ran out, where it got to", async () => {
    const { db } = store();
    const run = await createRun(db, "acme.io", "schedule", T0, "dead", T0);
    expect(await saveProgress(db, run!.id, "dead", { total: 10, done: 4, failed: 0, cursor: 44 }, T0)).toBe(true);
    expect(await claimStaleRun(db, "alive", later(RUN_LEASE_MS - 1))).toBeNull();
    const taken = await claimStaleRun(db, "alive", later(RUN_LEASE_MS + 1));
    expect(taken).toMatchObject({ id: run!.id, done: 4, total: 10, cursor: 44 });
    expect(await saveProgress(db, run!.id, "dead", { done: 5, failed: 0, cursor: 45 }, later(RUN_LEASE_MS + 2))).toBe(
      false,
    );
    await finishRun(db, run!.id, "alive", "done", "ok", later(RUN_LEASE_MS + 3));
    expect(await pruneRuns(db, 90, later(91 * 86_400_000))).toBe(1);
  });

  it("counts a run waiting for the budget as under way: no second manual run, kept from pruning, taken over when its process dies", async () => {
    const { db } = store();
    const run = await createRun(db, "acme.io", "manual", T0, "dead", T0);
    expect(await saveProgress(db, run!.id, "dead", { done: 0, failed: 0, cursor: 0 }, T0, "waiting")).toBe(true);
    expect((await listRuns(db, "acme.io"))[0]).toMatchObject({ status: "waiting" });
    expect(await createRun(db, "acme.io", "manual", later(1000), "other", later(1000))).toBeNull();
    expect(await pruneRuns(db, 90, later(91 * 86_400_000))).toBe(0);
    const taken = await claimStaleRun(db, "alive", later(RUN_LEASE_MS + 1));
    expect(taken).toMatchObject({ id: run!.id, status: "waiting" });
    expect(await saveProgress(db, run!.id, "alive", { done: 1, failed: 0, cursor: 1 }, later(RUN_LEASE_MS + 2))).toBe(
      true,
    );
    expect((await listRuns(db, "acme.io"))[0]).toMatchObject({ status: "running", done: 1 });
  });
});
