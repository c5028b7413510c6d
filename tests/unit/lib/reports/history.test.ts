// The result history on SQLite and PostgreSQL: a result recorded once per (report, generated_at) (the newer of two
// with one time kept), a batch in one insert, each report's newest result moved forward only by a newer one, the changes found, the timeline and the
// pruning by retention.
import { describe, expect, it } from "vitest";

import type { Report } from "@/lib/contract/reports";
import {
  countHistory,
  isDrop,
  pruneHistory,
  recordResults,
  reportHistory,
  resultsOf,
  type SeenResult,
} from "@/lib/reports/history";

import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const BACKENDS = bothBackends();

const seen = (
  report_id: number,
  result: SeenResult["result"],
  generated_at: string,
  project: string | null = "acme.io",
): SeenResult => ({
  report_id,
  url: `https://acme.io/${report_id}`,
  project,
  result,
  generated_at,
});

describe("resultsOf", () => {
  it("takes each report's result once, skips reports not generated yet, and writes times in one form", () => {
    const report = (id: number, generated_at: string | null): Report => ({
      id,
      url: `https://a.io/${id}`,
      project: "a.io",
      result: "good",
      generated_at,
      privacy: 0,
    });
    expect(
      resultsOf([report(1, "2026-11-01T10:00:00Z"), report(1, "2026-11-01T10:00:00.000Z"), report(2, null)]),
    ).toEqual([
      {
        report_id: 1,
        url: "https://a.io/1",
        project: "a.io",
        result: "good",
        generated_at: "2026-11-01T10:00:00.000Z",
      },
    ]);
  });
  it("calls a move to a later result a drop", () => {
    expect([
      isDrop("good", "decent"),
      isDrop("good", "bad"),
      isDrop("decent", "bad"),
      isDrop("bad", "good"),
      isDrop("decent", "decent"),
    ]).toEqual([true, true, true, false, false]);
  });
});

describe.each<Backend>(BACKENDS)("history on $name", (backend) => {
  const store = useStore(backend);

  it("records a result once per generated_at (seen again, nothing is written) and reports the changes", async () => {
    const { db } = store();
    const batch = Array.from({ length: 100 }, (_, n) => seen(n + 1, "good", "2026-11-01T10:00:00.000Z"));
    expect(await recordResults(db, batch, "list")).toEqual([]); // first results: nothing to compare with
    expect(await recordResults(db, batch, "list")).toEqual([]); // seen again: nothing written
    expect(await countHistory(db)).toBe(100);

    const changes = await recordResults(
      db,
      [seen(1, "bad", "2026-11-02T10:00:00.000Z"), seen(2, "good", "2026-11-02T10:00:00.000Z")],
      "regenerate",
    );
    expect(changes).toEqual([
      expect.objectContaining({ report_id: 1, from: "good", result: "bad", history_id: expect.any(Number) }),
    ]);
    expect(await countHistory(db)).toBe(102);
    const latest = await db
      .selectFrom("report_latest")
      .selectAll()
      .where("report_id", "=", 1)
      .executeTakeFirstOrThrow();
    expect(latest).toMatchObject({ result: "bad", generated_at: "2026-11-02T10:00:00.000Z" });
  });

  it("keeps an older result seen late in the history without making it the newest or a change", async () => {
    const { db } = store();
    await recordResults(db, [seen(5, "good", "2026-11-03T00:00:00.000Z")], "show");
    expect(await recordResults(db, [seen(5, "bad", "2026-11-01T00:00:00.000Z")], "list")).toEqual([]);
    expect(
      (await db.selectFrom("report_latest").select("result").where("report_id", "=", 5).executeTakeFirstOrThrow())
        .result,
    ).toBe("good");
    // Two new results of one report in one batch compare with each other, oldest first.
    const changes = await recordResults(
      db,
      [seen(5, "good", "2026-11-05T00:00:00.000Z"), seen(5, "decent", "2026-11-04T00:00:00.000Z")],
      "list",
    );
    expect(changes.map((c) => [c.from, c.result])).toEqual([
      ["good", "decent"],
      ["decent", "good"],
    ]);
  });

  it("keeps the newer of two results with one generated_at, and counts a correction of the newest as a change", async () => {
    const { db } = store();
    await recordResults(db, [seen(7, "good", "2026-11-01T00:00:00.000Z")], "show");
    const [drop] = await recordResults(db, [seen(7, "bad", "2026-11-02T00:00:00.000Z")], "show");
    // A regeneration within the same second: the upstream's time did not move, its result did.
    const changes = await recordResults(db, [seen(7, "good", "2026-11-02T00:00:00.000Z")], "regenerate");
    expect(changes).toEqual([
      expect.objectContaining({ report_id: 7, from: "bad", result: "good", history_id: drop!.history_id }),
    ]);
    expect(await recordResults(db, [seen(7, "good", "2026-11-02T00:00:00.000Z")], "list")).toEqual([]);
    expect(await countHistory(db)).toBe(2);
    expect(
      (await db.selectFrom("report_latest").selectAll().where("report_id", "=", 7).executeTakeFirstOrThrow()).result,
    ).toBe("good");
    const { entries } = await reportHistory(db, 7, 400);
    expect(entries.map((e) => [e.result, e.change, e.source])).toEqual([
      ["good", "same", "regenerate"],
      ["good", "first", "show"],
    ]);
    // An older result corrected is history only: the newest result and the changes stay as they are.
    expect(await recordResults(db, [seen(7, "decent", "2026-11-01T00:00:00.000Z")], "list")).toEqual([]);
    expect((await reportHistory(db, 7, 400)).entries.map((e) => e.result)).toEqual(["good", "decent"]);
  });

  it("answers a report's timeline newest first with each change", async () => {
    const { db } = store();
    await recordResults(db, [seen(9, "good", "2026-11-01T00:00:00.000Z")], "create");
    await recordResults(db, [seen(9, "bad", "2026-11-02T00:00:00.000Z")], "regenerate");
    await recordResults(db, [seen(9, "bad", "2026-11-03T00:00:00.000Z")], "schedule");
    await recordResults(db, [seen(9, "decent", "2026-11-04T00:00:00.000Z")], "show");
    const history = await reportHistory(db, 9, 400);
    expect(history).toMatchObject({ report_id: 9, url: "https://acme.io/9", project: "acme.io", retention_days: 400 });
    expect(history.entries.map((e) => [e.result, e.previous_result, e.change, e.source])).toEqual([
      ["decent", "bad", "better", "show"],
      ["bad", "bad", "same", "schedule"],
      ["bad", "good", "worse", "regenerate"],
      ["good", null, "first", "create"],
    ]);
    expect((await reportHistory(db, 10, 400)).entries).toEqual([]);
  });

  it("prunes results older than the retention, with their alerts, and keeps the newest result known", async () => {
    const { db } = store();
    await recordResults(
      db,
      [seen(1, "good", "2025-01-01T00:00:00.000Z"), seen(2, "good", "2026-11-01T00:00:00.000Z")],
      "list",
    );
    const [change] = await recordResults(db, [seen(1, "bad", "2025-01-02T00:00:00.000Z")], "list");
    await db
      .insertInto("report_alerts")
      .values({
        history_id: change!.history_id,
        report_id: 1,
        url: "u",
        project: null,
        from_result: "good",
        to_result: "bad",
        generated_at: change!.generated_at,
        created_at: change!.generated_at,
        acknowledged_at: null,
        acknowledged_by: null,
      })
      .execute();
    expect(await pruneHistory(db, 400, new Date("2026-11-20T00:00:00Z"), 1)).toBe(2);
    expect(await countHistory(db)).toBe(1);
    expect(await db.selectFrom("report_alerts").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("report_latest").select("report_id").orderBy("report_id").execute()).toEqual([
      { report_id: 1 },
      { report_id: 2 },
    ]);
    expect(await pruneHistory(db, 400, new Date("2026-11-20T00:00:00Z"))).toBe(0);
  });
});
