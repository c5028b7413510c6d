// What `npm run lighthouse` makes of Lighthouse's results: the scores, the audit that cost each category the
// most, the table it prints and the lines that fail the run.
import { describe, expect, it } from "vitest";

import {
  bestRun,
  failures,
  FLOOR_PAGE,
  FLOOR_TBT_RATIO,
  passedAgainstFloor,
  scoresOf,
  scoreTable,
  slowRun,
  type LighthouseResult,
} from "@/scripts/lighthouse-scores";

function lhr(
  scores: { performance: number; accessibility: number; "best-practices": number },
  audits: LighthouseResult["audits"] = {},
): LighthouseResult {
  return {
    categories: {
      performance: {
        score: scores.performance,
        auditRefs: [
          { id: "cumulative-layout-shift", weight: 25 },
          { id: "largest-contentful-paint", weight: 25 },
          { id: "metrics", weight: 0 },
        ],
      },
      accessibility: { score: scores.accessibility, auditRefs: [{ id: "color-contrast", weight: 7 }] },
      "best-practices": { score: scores["best-practices"], auditRefs: [{ id: "errors-in-console", weight: 1 }] },
    },
    audits: {
      "cumulative-layout-shift": { title: "Cumulative Layout Shift", score: 1, displayValue: "0" },
      "largest-contentful-paint": { title: "Largest Contentful Paint", score: 1, displayValue: "1.0 s" },
      metrics: { title: "Metrics", score: 0 },
      "color-contrast": { title: "Contrast", score: 1 },
      "errors-in-console": { title: "No errors in the console", score: 1 },
      ...audits,
    },
  };
}

describe("scoresOf", () => {
  it("turns category scores into 0–100 and names the audit that cost the most (weight × lost score)", () => {
    const run = scoresOf(
      "dashboard",
      "mobile",
      lhr(
        { performance: 0.79, accessibility: 1, "best-practices": 0.964 },
        {
          "cumulative-layout-shift": { title: "Cumulative Layout Shift", score: 0.1, displayValue: "0.48" },
          "largest-contentful-paint": { title: "Largest Contentful Paint", score: 0.9, displayValue: "2.6 s" },
          "errors-in-console": { title: "No errors in the console", score: 0 },
        },
      ),
    );
    expect(run.categories.performance).toEqual({ score: 79, costliest: "Cumulative Layout Shift (0.48)" });
    expect(run.categories["best-practices"]).toEqual({ score: 96, costliest: "No errors in the console" });
    expect(run.categories.accessibility).toEqual({ score: 100, costliest: null });
    expect(run.error).toBeUndefined();
  });

  it("an audit of weight 0 (informative) never counts as the costliest", () => {
    expect(
      scoresOf("a", "desktop", lhr({ performance: 1, accessibility: 1, "best-practices": 1 })).categories.performance
        .costliest,
    ).toBeNull();
  });

  it("keeps a run Lighthouse could not finish, with its error and no scores", () => {
    const run = scoresOf("404", "mobile", {
      runtimeError: { code: "ERRORED_DOCUMENT_REQUEST", message: "Status code: 404" },
      categories: { performance: { score: null, auditRefs: [] } },
      audits: {},
    });
    expect(run.error).toBe("ERRORED_DOCUMENT_REQUEST: Status code: 404");
    expect(run.categories.performance.score).toBeNull();
    expect(run.categories.accessibility.score).toBeNull();
  });
});

describe("scoreTable", () => {
  it("prints a row per page and a column per form factor and category, marking scores below the threshold", () => {
    const runs = [
      scoresOf("dashboard", "mobile", lhr({ performance: 0.79, accessibility: 1, "best-practices": 0.96 })),
      scoresOf("dashboard", "desktop", lhr({ performance: 0.99, accessibility: 1, "best-practices": 0.96 })),
      scoresOf("reports", "mobile", lhr({ performance: 1, accessibility: 1, "best-practices": 1 })),
      scoresOf("reports", "desktop", lhr({ performance: 0.98, accessibility: 0.94, "best-practices": 1 })),
    ];
    expect(scoreTable(runs, 95).split("\n")).toEqual([
      "page       mobile perf  a11y  best  desktop perf  a11y  best",
      "dashboard          79!   100    96            99   100    96",
      "reports            100   100   100            98   94!   100",
    ]);
  });

  it("shows a failed run as – and a run not made as blank", () => {
    const failed = scoresOf("404", "mobile", { runtimeError: { code: "X", message: "y" }, categories: {}, audits: {} });
    expect(scoreTable([failed]).split("\n")[1]).toBe("404             –     –     –");
  });
});

describe("failures", () => {
  it("names each page, form factor and category below the threshold with its costliest audit, and nothing else", () => {
    const runs = [
      scoresOf(
        "dashboard",
        "mobile",
        lhr(
          { performance: 0.79, accessibility: 1, "best-practices": 1 },
          { "cumulative-layout-shift": { title: "Cumulative Layout Shift", score: 0.1, displayValue: "0.48" } },
        ),
      ),
      scoresOf("dashboard", "desktop", lhr({ performance: 0.95, accessibility: 1, "best-practices": 1 })),
    ];
    expect(failures(runs, 95)).toEqual([
      "dashboard (mobile) performance 79 < 95 — costliest audit: Cumulative Layout Shift (0.48)",
    ]);
  });

  it("fails a run Lighthouse could not finish", () => {
    const failed = scoresOf("404", "desktop", {
      runtimeError: { code: "ERRORED_DOCUMENT_REQUEST", message: "Status code: 404" },
      categories: {},
      audits: {},
    });
    expect(failures([failed])).toEqual([
      "404 (desktop): Lighthouse could not audit it — ERRORED_DOCUMENT_REQUEST: Status code: 404",
    ]);
  });

  it("passes when every score reaches the threshold", () => {
    expect(
      failures(
        [scoresOf("reports", "mobile", lhr({ performance: 0.95, accessibility: 0.95, "best-practices": 0.95 }))],
        95,
      ),
    ).toEqual([]);
  });
});

describe("a slow page measured again", () => {
  const run = (performance: number) =>
    scoresOf("items", "mobile", lhr({ performance, accessibility: 1, "best-practices": 1 }));

  it("measures again only a run whose performance is below the threshold", () => {
    expect([slowRun(run(0.94), 95), slowRun(run(0.95), 95)]).toEqual([true, false]);
    const failed = scoresOf("404", "desktop", {
      runtimeError: { code: "ERRORED_DOCUMENT_REQUEST", message: "Status code: 404" },
      categories: {},
      audits: {},
    });
    expect(slowRun(failed)).toBe(false);
  });

  it("counts the best run: one fast run among slow ones passes, a page slow in every run fails", () => {
    expect(bestRun([run(0.81), run(0.96), run(0.9)]).categories.performance.score).toBe(96);
    expect(failures([bestRun([run(0.81), run(0.96), run(0.9)])], 95)).toEqual([]);
    expect(failures([bestRun([run(0.81), run(0.94), run(0.9)])], 95)).toEqual(["items (mobile) performance 94 < 95"]);
  });

  it("keeps accessibility and best practices at their worst run, and a run Lighthouse could not finish fails the page", () => {
    const consoleErrorOnce = scoresOf(
      "items",
      "mobile",
      lhr({ performance: 0.99, accessibility: 1, "best-practices": 0.92 }),
    );
    expect(bestRun([run(0.9), consoleErrorOnce, run(0.93)]).categories).toMatchObject({
      performance: { score: 99 },
      "best-practices": { score: 92 },
      accessibility: { score: 100 },
    });
    const unfinished = scoresOf("items", "mobile", {
      runtimeError: { code: "NO_FCP", message: "no paint" },
      categories: {},
      audits: {},
    });
    expect(failures([bestRun([run(0.99), unfinished])])).toEqual([
      "items (mobile): Lighthouse could not audit it — NO_FCP: no paint",
    ]);
    expect(() => bestRun([])).toThrow("no runs");
  });
});

describe("a performance score below the threshold, judged against the framework floor", () => {
  /** A mobile run whose performance is Total Blocking Time (weight 30) and LCP (weight 70). */
  const withTbt = (page: string, tbtMs: number, tbtScore: number, lcpScore = 1) => {
    const result = lhr(
      { performance: 0.3 * tbtScore + 0.7 * lcpScore, accessibility: 1, "best-practices": 1 },
      {
        "total-blocking-time": {
          title: "Total Blocking Time",
          score: tbtScore,
          displayValue: `${tbtMs} ms`,
          numericValue: tbtMs,
        },
        "largest-contentful-paint": { title: "Largest Contentful Paint", score: lcpScore, displayValue: "1.0 s" },
      },
    );
    result.categories.performance!.auditRefs = [
      { id: "total-blocking-time", weight: 30 },
      { id: "largest-contentful-paint", weight: 70 },
    ];
    return scoresOf(page, "mobile", result);
  };
  const floor = withTbt(FLOOR_PAGE, 300, 0.8);

  it("reads Total Blocking Time and what the rest of the page scores", () => {
    expect(withTbt("items", 800, 0.4, 0.9)).toMatchObject({ totalBlockingTimeMs: 800, performanceWithoutTbt: 93 });
  });

  it(`passes when Total Blocking Time alone cost the points and is at most ${FLOOR_TBT_RATIO}× the floor's, and says so`, () => {
    const items = withTbt("items", 800, 0.4);
    expect(items.categories.performance.score).toBe(82);
    expect(failures([items], 95, { mobile: floor })).toEqual([]);
    expect(passedAgainstFloor(items, floor)).toBe(
      "items (mobile) performance 82: below 95 by Total Blocking Time only, 800 ms (2.7×) against the bare Next.js page's 300 ms (score 94) on this machine; at most 3× passes",
    );
  });

  it("fails past the ratio, when another metric lost points too, or when no floor was measured", () => {
    const heavy = withTbt("items", 901, 0.3);
    expect(failures([heavy], 95, { mobile: floor })).toEqual([
      "items (mobile) performance 79 < 95 — costliest audit: Total Blocking Time (901 ms); Total Blocking Time 901 ms against the bare Next.js page's 300 ms (at most 3×), the rest scores 100",
    ]);
    const slowPaint = withTbt("items", 400, 0.7, 0.9);
    expect(passedAgainstFloor(slowPaint, floor)).toBeNull();
    expect(failures([slowPaint], 95, { mobile: floor })).toHaveLength(1);
    expect(failures([withTbt("items", 800, 0.4)], 95)).toHaveLength(1);
    // A floor measured at the other form factor does not count.
    expect(failures([withTbt("items", 800, 0.4)], 95, { desktop: floor })).toHaveLength(1);
  });

  it("judges the best of several runs part by part: the lowest Total Blocking Time and the best of the rest, each against the floor's best", () => {
    // One run lost points on its paint (a slow moment of the machine), another on its blocking time: neither alone
    // passes, and the page itself costs what the best of each shows.
    const slowPaint = withTbt("items", 420, 0.7, 0.9);
    const slowScript = withTbt("items", 1000, 0.25);
    expect([passedAgainstFloor(slowPaint, floor), passedAgainstFloor(slowScript, floor)]).toEqual([null, null]);
    const best = bestRun([slowPaint, slowScript]);
    expect(best).toMatchObject({ totalBlockingTimeMs: 420, performanceWithoutTbt: 100 });
    const floors = bestRun([
      withTbt(FLOOR_PAGE, 500, 0.6),
      withTbt(FLOOR_PAGE, 300, 0.8),
      withTbt(FLOOR_PAGE, 350, 0.75),
    ]);
    expect(floors.totalBlockingTimeMs).toBe(300);
    expect(failures([best], 95, { mobile: floors })).toEqual([]);
    // A page whose every run blocks more than 3× the floor's best still fails.
    expect(
      failures([bestRun([withTbt("items", 950, 0.3), withTbt("items", 1200, 0.2)])], 95, { mobile: floors }),
    ).toHaveLength(1);
  });

  it("judges a page that carries the floor measured again beside it against that floor, not the run's first", () => {
    // The machine slowed down after the run's first floor (300 ms): the page and the floor measured again beside it
    // are both slower, and it is their ratio that counts.
    const later = { ...withTbt("items", 1500, 0.1), floor: withTbt(FLOOR_PAGE, 600, 0.5) };
    expect(passedAgainstFloor(later, floor)).toContain("1500 ms (2.5×) against the bare Next.js page's 600 ms");
    expect(failures([later], 95, { mobile: floor })).toEqual([]);
    // Against the later floor a page that got dearer still fails, and the line names that floor.
    const dearer = { ...withTbt("items", 1900, 0.05), floor: withTbt(FLOOR_PAGE, 600, 0.5) };
    expect(failures([dearer], 95, { mobile: floor })).toEqual([
      expect.stringContaining("Total Blocking Time 1900 ms against the bare Next.js page's 600 ms (at most 3×)"),
    ]);
  });
});
