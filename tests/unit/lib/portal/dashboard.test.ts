// The dashboard's counts of reports by result, in all and per project.
import { describe, expect, it } from "vitest";

import { type Report } from "@/lib/contract/reports";
import { countResults, DASHBOARD_MAX_PROJECT_ROWS, NO_PROJECT_LABEL } from "@/lib/portal/dashboard";

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
    const rows = countResults([report(1, "a", "good"), report(2, "b", "bad"), report(3, "b", "decent"), report(4, null, "good")]);
    expect(rows).toEqual([
      { label: "All reports", good: 2, decent: 1, bad: 1 },
      { label: "b", good: 0, decent: 1, bad: 1 },
      { label: "a", good: 1, decent: 0, bad: 0 },
      { label: NO_PROJECT_LABEL, good: 1, decent: 0, bad: 0 },
    ]);
  });

  it("sums the smallest projects into one row", () => {
    const reports = Array.from({ length: DASHBOARD_MAX_PROJECT_ROWS + 3 }, (_, i) => report(i + 1, `p${String(i).padStart(2, "0")}`, "bad"));
    const rows = countResults(reports);
    expect(rows).toHaveLength(1 + DASHBOARD_MAX_PROJECT_ROWS + 1);
    expect(rows.at(-1)).toEqual({ label: "3 other projects", good: 0, decent: 0, bad: 3 });
  });
});
