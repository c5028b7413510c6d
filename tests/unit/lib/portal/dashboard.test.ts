// The dashboard's counts of reports by result, in all and per project.
import { describe, expect, it } from "vitest";

import { type Report } from "@/lib/contract/reports";
import { checkShares, countResults, DASHBOARD_MAX_PROJECT_ROWS, NO_PROJECT_LABEL } from "@/lib/portal/dashboard";

describe("countResults", () => {
  const report = (id: number, project: string | null, result: Report["result"]): Report => ({
    id,
    url: `https://example.com/${id}`,
    project,
    result,
    generated_at: null,
    privacy: 0,
  });

  it("counts all reports, then each project with the most reports first", () => {
    const rows = countResults([
      report(1, "a", "good"),
      report(2, "b", "bad"),
      report(3, "b", "decent"),
      report(4, null, "good"),
    ]);
    expect(rows).toEqual([
      { label: "All reports", good: 2, decent: 1, bad: 1 },
      { label: "b", good: 0, decent: 1, bad: 1 },
      { label: "a", good: 1, decent: 0, bad: 0 },
      { label: NO_PROJECT_LABEL, good: 1, decent: 0, bad: 0 },
    ]);
  });

  it("sums the smallest projects into one row", () => {
    const reports = Array.from({ length: DASHBOARD_MAX_PROJECT_ROWS + 3 }, (_, i) =>
      report(i + 1, `p${String(i).padStart(2, "0")}`, "bad"),
    );
    const rows = countResults(reports);
    expect(rows).toHaveLength(1 + DASHBOARD_MAX_PROJECT_ROWS + 1);
    expect(rows.at(-1)).toEqual({ label: "3 other projects", good: 0, decent: 0, bad: 3 });
  });
});

describe("checkShares", () => {
  it("gives each outcome its count and a whole percent, in a fixed order, adding up to 100", () => {
    expect(checkShares({ valid: 2, expired: 1, invalid: 1, failed: 1 })).toEqual([
      { key: "valid", label: "Valid", count: 2, percent: 40 },
      { key: "expired", label: "Support expired", count: 1, percent: 20 },
      { key: "invalid", label: "Invalid", count: 1, percent: 20 },
      { key: "failed", label: "Failed", count: 1, percent: 20 },
    ]);
  });

  it("rounds by largest remainder: three thirds are 34, 33, 33", () => {
    expect(checkShares({ valid: 1, expired: 0, invalid: 1, failed: 1 }).map((share) => share.percent)).toEqual([
      34, 0, 33, 33,
    ]);
    const odd = checkShares({ valid: 7, expired: 5, invalid: 3, failed: 1 }).map((share) => share.percent);
    expect(odd.reduce((sum, n) => sum + n, 0)).toBe(100);
    expect(odd).toEqual([44, 31, 19, 6]);
  });

  it("is all zeros for a day without checks", () => {
    expect(checkShares({ valid: 0, expired: 0, invalid: 0, failed: 0 }).map((share) => share.percent)).toEqual([
      0, 0, 0, 0,
    ]);
  });
});
