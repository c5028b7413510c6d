// Regression alerts on SQLite and PostgreSQL: one per drop (and none for a result seen again or recorded by a
// second instance; a row corrected to another drop renews its alert), the project's rule, the list's filters,
// acknowledging.
import { describe, expect, it } from "vitest";

import {
  acknowledgeAlerts,
  alertProjects,
  unacknowledgeAlerts,
  createAlerts,
  getAlertRule,
  listAlerts,
  ruleWants,
  setAlertRule,
  unreadAlertCount,
} from "@/lib/reports/alerts";
import { recordResults, type SeenResult } from "@/lib/reports/history";

import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const BACKENDS = bothBackends();

const at = (report_id: number, result: SeenResult["result"], day: string, project = "acme.io"): SeenResult => ({
  report_id,
  url: `https://${project}/${report_id}`,
  project,
  result,
  generated_at: `${day}T10:00:00.000Z`,
});

describe("ruleWants", () => {
  it("any: every drop; to_bad: only a drop to bad; off: none", () => {
    expect([
      ruleWants("any", "decent"),
      ruleWants("any", "bad"),
      ruleWants("to_bad", "decent"),
      ruleWants("to_bad", "bad"),
      ruleWants("off", "bad"),
    ]).toEqual([true, true, false, true, false]);
  });
});

describe.each<Backend>(BACKENDS)("alerts on $name", (backend) => {
  const store = useStore(backend);

  it("makes one alert per drop, none for a rise, and none again for the same history row", async () => {
    const { db } = store();
    await recordResults(
      db,
      [at(1, "good", "2026-11-01"), at(2, "bad", "2026-11-01"), at(3, "decent", "2026-11-01")],
      "list",
    );
    const changes = await recordResults(
      db,
      [at(1, "decent", "2026-11-02"), at(2, "good", "2026-11-02"), at(3, "bad", "2026-11-02")],
      "list",
    );
    expect(await createAlerts(db, changes)).toBe(2);
    expect(await createAlerts(db, changes)).toBe(0); // a second instance recording the same rows
    expect(await unreadAlertCount(db)).toBe(2);
    const page = await listAlerts(db, {});
    expect(page.meta).toEqual({ page: 1, per_page: 25, total: 2, last_page: 1 });
    expect(page.data.map((a) => [a.report_id, a.from, a.to])).toEqual([
      [3, "decent", "bad"],
      [1, "good", "decent"],
    ]);
  });

  it("renews a row's alert when the row is corrected to another drop under the same generated_at", async () => {
    const { db } = store();
    await recordResults(db, [at(1, "good", "2026-11-01")], "list");
    const drop = await recordResults(db, [at(1, "decent", "2026-11-02")], "list");
    expect(await createAlerts(db, drop)).toBe(1);
    await acknowledgeAlerts(db, { all: true }, "ed@example.com");
    const worse = await recordResults(db, [at(1, "bad", "2026-11-02")], "regenerate");
    expect(await createAlerts(db, worse)).toBe(1);
    expect(await createAlerts(db, worse)).toBe(0); // a second instance recording the same correction
    expect((await listAlerts(db, {})).data.map((a) => [a.from, a.to, a.acknowledged_at])).toEqual([
      ["decent", "bad", null],
    ]);
  });

  it("follows the project's rule, filters the list, and acknowledges by id or all", async () => {
    const { db } = store();
    expect(await getAlertRule(db, "beta.io")).toEqual({
      project: "beta.io",
      rule: "any",
      updated_at: null,
      updated_by: null,
    });
    await setAlertRule(db, "beta.io", "to_bad", "ed@example.com");
    await setAlertRule(db, "off.io", "off", "ed@example.com");
    expect(await getAlertRule(db, "beta.io")).toMatchObject({ rule: "to_bad", updated_by: "ed@example.com" });
    await recordResults(
      db,
      [
        at(1, "good", "2026-11-01"),
        at(2, "good", "2026-11-01", "beta.io"),
        at(3, "good", "2026-11-01", "beta.io"),
        at(4, "good", "2026-11-01", "off.io"),
      ],
      "list",
    );
    const changes = await recordResults(
      db,
      [
        at(1, "bad", "2026-11-02"),
        at(2, "decent", "2026-11-02", "beta.io"),
        at(3, "bad", "2026-11-02", "beta.io"),
        at(4, "bad", "2026-11-02", "off.io"),
      ],
      "list",
    );
    expect(await createAlerts(db, changes)).toBe(2);
    expect((await listAlerts(db, { project: "beta.io" })).data.map((a) => a.report_id)).toEqual([3]);
    expect((await listAlerts(db, { to: "bad" })).meta.total).toBe(2);
    // The project filter's choices: the projects that have alerts, by name.
    expect(await alertProjects(db)).toEqual(["acme.io", "beta.io"]);

    const [first] = (await listAlerts(db, { project: "acme.io" })).data;
    expect(await acknowledgeAlerts(db, { ids: [first!.id] }, "ed@example.com", new Date("2026-11-03T00:00:00Z"))).toBe(
      1,
    );
    expect(await acknowledgeAlerts(db, { ids: [first!.id] }, "ed@example.com")).toBe(0);
    expect((await listAlerts(db, { status: "acknowledged" })).data).toEqual([
      expect.objectContaining({
        id: first!.id,
        acknowledged_at: "2026-11-03T00:00:00.000Z",
        acknowledged_by: "ed@example.com",
      }),
    ]);
    expect(await acknowledgeAlerts(db, { all: true }, "ed@example.com")).toBe(1);
    expect(await unreadAlertCount(db)).toBe(0);
    expect((await listAlerts(db, { status: "all", per_page: 10, page: 1 })).meta.total).toBe(2);
  });

  it("undoes one acknowledgement: only the alerts that person acknowledged at that time are unread again", async () => {
    const { db } = store();
    await recordResults(db, [at(1, "good", "2026-11-01"), at(2, "good", "2026-11-01")], "list");
    await createAlerts(db, await recordResults(db, [at(1, "bad", "2026-11-02"), at(2, "bad", "2026-11-02")], "list"));
    const [newer, older] = (await listAlerts(db, {})).data;
    const when = new Date("2026-11-03T00:00:00Z");
    await acknowledgeAlerts(db, { ids: [older!.id] }, "ed@example.com", new Date("2026-11-02T12:00:00Z"));
    await acknowledgeAlerts(db, { ids: [newer!.id] }, "ed@example.com", when);
    expect(await unacknowledgeAlerts(db, when.toISOString(), "someone@example.com")).toBe(0);
    expect(await unacknowledgeAlerts(db, when.toISOString(), "ed@example.com")).toBe(1);
    expect((await listAlerts(db, {})).data.map((alert) => alert.id)).toEqual([newer!.id]);
  });
});
