// Trends, project mixes and compare on SQLite and PostgreSQL, over a history written through recordResults; and the
// plan each store makes for the 365-day trend over 100,000 results: read from an index alone, never the table.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";

import { recordResults, type SeenResult } from "@/lib/reports/history";
import { compareDays, dayRange, projectMixes, resultTrend, trendQuery } from "@/lib/reports/trends";
import type { Store } from "@/lib/db";

import { fillHistory } from "@/tests/support/history-rows";
import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const BACKENDS = bothBackends();

const at = (
  report_id: number,
  result: SeenResult["result"],
  day: string,
  project: string | null = "acme.io",
  hour = "10",
): SeenResult => ({
  report_id,
  url: `https://${project ?? "none"}/${report_id}`,
  project,
  result,
  generated_at: `${day}T${hour}:00:00.000Z`,
});
const TODAY = new Date("2026-11-24T12:00:00Z");

describe("dayRange", () => {
  it("counts back from today, today included, across a month's end", () => {
    expect(dayRange(3, new Date("2026-12-01T23:59:59Z"))).toEqual(["2026-11-29", "2026-11-30", "2026-12-01"]);
    expect(dayRange(365, TODAY)).toHaveLength(365);
  });
});

describe.each<Backend>(BACKENDS)("trends on $name", (backend) => {
  const store = useStore(backend);

  it("counts results by day and result, every day present, overall and for one project", async () => {
    const { db } = store();
    await recordResults(
      db,
      [
        at(1, "good", "2026-11-24"),
        at(2, "bad", "2026-11-24"),
        at(3, "bad", "2026-11-23", "beta.io"),
        at(4, "good", "2026-10-01"),
        at(1, "decent", "2026-11-22", "acme.io", "08"),
      ],
      "list",
    );
    const trend = await resultTrend(db, { days: 30, today: TODAY });
    expect(trend).toMatchObject({ from: "2026-10-26", to: "2026-11-24", project: null });
    expect(trend.days).toHaveLength(30);
    expect(trend.days.slice(-3)).toEqual([
      { day: "2026-11-22", good: 0, decent: 1, bad: 0 },
      { day: "2026-11-23", good: 0, decent: 0, bad: 1 },
      { day: "2026-11-24", good: 1, decent: 0, bad: 1 },
    ]);
    expect(trend.days.reduce((sum, d) => sum + d.good + d.decent + d.bad, 0)).toBe(4); // October's result is outside
    const beta = await resultTrend(db, { days: 90, project: "beta.io", today: TODAY });
    expect(beta.days.filter((d) => d.bad > 0)).toEqual([{ day: "2026-11-23", good: 0, decent: 0, bad: 1 }]);
    expect((await resultTrend(db, { days: 365, today: TODAY })).days.find((d) => d.day === "2026-10-01")).toEqual({
      day: "2026-10-01",
      good: 1,
      decent: 0,
      bad: 0,
    });
  });

  it("gives each project's reports by their newest result", async () => {
    const { db } = store();
    await recordResults(
      db,
      [
        at(1, "good", "2026-11-20"),
        at(2, "bad", "2026-11-20"),
        at(3, "good", "2026-11-20", "beta.io"),
        at(4, "bad", "2026-11-20", null),
      ],
      "list",
    );
    await recordResults(db, [at(1, "decent", "2026-11-21")], "list");
    expect(await projectMixes(db)).toEqual([
      { project: "acme.io", reports: 2, good: 0, decent: 1, bad: 1, last_generated_at: "2026-11-21T10:00:00.000Z" },
      { project: "beta.io", reports: 1, good: 1, decent: 0, bad: 0, last_generated_at: "2026-11-20T10:00:00.000Z" },
      { project: null, reports: 1, good: 0, decent: 0, bad: 1, last_generated_at: "2026-11-20T10:00:00.000Z" },
    ]);
  });

  it("compares two days of a project: better, worse, same and new, by each report's last result up to each day", async () => {
    const { db } = store();
    await recordResults(
      db,
      [
        at(1, "good", "2026-11-01"),
        at(2, "bad", "2026-11-01"),
        at(3, "decent", "2026-11-01"),
        at(9, "good", "2026-11-01", "beta.io"),
      ],
      "list",
    );
    await recordResults(
      db,
      [
        at(1, "bad", "2026-11-05"),
        at(2, "good", "2026-11-05"),
        at(4, "decent", "2026-11-05"),
        at(3, "good", "2026-11-09"),
      ],
      "list",
    );
    const compare = await compareDays(db, "acme.io", "2026-11-02", "2026-11-06");
    expect(compare).toEqual({
      project: "acme.io",
      from: "2026-11-02",
      to: "2026-11-06",
      better: [{ report_id: 2, url: "https://acme.io/2", from: "bad", to: "good", change: "better" }],
      worse: [{ report_id: 1, url: "https://acme.io/1", from: "good", to: "bad", change: "worse" }],
      same: 1,
      new: [{ report_id: 4, url: "https://acme.io/4", from: null, to: "decent", change: "new" }],
    });
    expect((await compareDays(db, "nobody.io", "2026-11-01", "2026-11-02")).same).toBe(0);
  });
});

/** The plan the store makes for the trend's statement, one line per step. */
async function planOf(store: Store, project?: string): Promise<string> {
  const range = dayRange(365, TODAY);
  const compiled = trendQuery(store.db, range[0]!, range[range.length - 1]!, project).compile();
  const explain = store.dialect === "postgres" ? "EXPLAIN" : "EXPLAIN QUERY PLAN";
  const { rows } = await sql
    .raw<Record<string, unknown>>(`${explain} ${inlined(compiled.sql, compiled.parameters)}`)
    .execute(store.db);
  return rows.map((row) => String(row["QUERY PLAN"] ?? row.detail)).join("\n");
}

/** The statement with its parameters written in (EXPLAIN takes no parameters on PostgreSQL): all are plain strings here. */
function inlined(text: string, parameters: readonly unknown[]): string {
  let index = 0;
  return text.replace(/\$\d+|\?/g, () => `'${String(parameters[index++]).replaceAll("'", "''")}'`);
}

describe.each<Backend>(BACKENDS)("the 365-day trend over 100,000 results on $name", (backend) => {
  const store = useStore(backend);

  it("is read from the (day, result) index alone, and one project's from (project, day, result): no scan of the table", async () => {
    await fillHistory(store(), 100_000, TODAY);
    const overall = await planOf(store());
    const project = await planOf(store(), "site-7.example");
    if (backend.name === "postgres") {
      expect(overall).toMatch(/Index Only Scan using report_results_day_result on report_results/);
      expect(project).toMatch(/Index Only Scan using report_results_project_day_result on report_results/);
    } else {
      expect(overall).toMatch(/USING COVERING INDEX report_results_day_result/);
      expect(project).toMatch(/USING COVERING INDEX report_results_project_day_result/);
    }
    expect(`${overall}\n${project}`).not.toMatch(/Seq Scan|SCAN report_results(?! USING)/);
  }, 120_000);
});
