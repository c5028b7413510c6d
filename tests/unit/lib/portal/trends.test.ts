import { describe, expect, it } from "vitest";

import type { ProjectMix } from "@/lib/contract/history";
import { percent, projectFromSegment, projectOverviewHref, sortMixes, trendDaysParam } from "@/lib/portal/trends";

const mix = (project: string | null, good: number, decent: number, bad: number): ProjectMix => ({
  project,
  reports: good + decent + bad,
  good,
  decent,
  bad,
  last_generated_at: null,
});

describe("trendDaysParam", () => {
  it("takes 30, 90 or 365 and falls back to 30", () => {
    expect([
      trendDaysParam({ days: "90" }),
      trendDaysParam({ days: ["365", "30"] }),
      trendDaysParam({ days: "7" }),
      trendDaysParam({}),
    ]).toEqual([90, 365, 30, 30]);
  });
});

describe("sortMixes", () => {
  const rows = [mix("b.io", 1, 0, 3), mix("A.io", 5, 0, 0), mix(null, 0, 1, 1), mix("c.io", 2, 2, 0)];
  it("sorts by any column, names case-insensitively, ties by name", () => {
    expect(sortMixes(rows, "project", "asc").map((r) => r.project)).toEqual(["A.io", "b.io", "c.io", null]);
    expect(sortMixes(rows, "reports", "desc").map((r) => r.project)).toEqual(["A.io", "b.io", "c.io", null]);
    expect(sortMixes(rows, "bad_share", "desc").map((r) => r.project)).toEqual(["b.io", null, "A.io", "c.io"]);
    expect(sortMixes(rows, "bad", "asc").map((r) => r.project)).toEqual(["A.io", "c.io", null, "b.io"]);
  });
  it("says a share as a whole percentage", () => {
    expect([percent(1, 3), percent(0, 0)]).toEqual(["33%", "0%"]);
  });
});

describe("projectOverviewHref", () => {
  it("puts the name in a segment of its own, never last (a host name would look like a file)", () => {
    expect(projectOverviewHref("acme-tools.io")).toBe("/projects/acme-tools.io/overview");
    expect(projectOverviewHref("my shop", 90)).toBe("/projects/my%20shop/overview?days=90");
    expect(projectOverviewHref("a/b")).toBe("/projects/a%2Fb/overview");
  });
});

describe("projectFromSegment", () => {
  it("decodes an escaped name and keeps one that is no escape sequence", () => {
    expect(projectFromSegment("my%20shop")).toBe("my shop");
    expect(projectFromSegment("caf%C3%A9-m%C3%BCnchen.de")).toBe("café-münchen.de");
    expect(projectFromSegment("50% off")).toBe("50% off");
  });
});
