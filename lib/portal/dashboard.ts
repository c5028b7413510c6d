// The dashboard's counts: reports by result, in all and per project, and the shares of a day's purchase checks.
// The upstream has no statistics endpoint, so the dashboard reads the newest reports (up to
// DASHBOARD_REPORT_LIMIT, 100 a page) and counts them here.
import type { Report } from "@/lib/contract/reports";
import type { Role } from "@/lib/contract/values";

/**
 * What each role's dashboard leads with: its own work. Support staff (and the admin, who is the seller) check
 * purchase codes all day; an editor or a viewer comes for the reports, and finds the checker below them.
 */
export const DASHBOARD_LEAD: Record<Role, "purchases" | "reports"> = {
  admin: "purchases",
  support: "purchases",
  editor: "reports",
  viewer: "reports",
};

/** Pages of 100 the dashboard reads at most; beyond, the chart says it counts the newest reports only. */
export const DASHBOARD_MAX_PAGES = 5;
export const DASHBOARD_REPORT_LIMIT = DASHBOARD_MAX_PAGES * 100;
/** Projects shown as their own bar; the rest are summed into "Other projects". */
export const DASHBOARD_MAX_PROJECT_ROWS = 8;

export interface ResultCountsRow {
  label: string;
  good: number;
  decent: number;
  bad: number;
}

export const NO_PROJECT_LABEL = "No project";

const empty = (label: string): ResultCountsRow => ({ label, good: 0, decent: 0, bad: 0 });
const totalOf = (row: ResultCountsRow) => row.good + row.decent + row.bad;

/** "All reports" first, then the projects with most reports (ties by name), then "Other projects". */
export function countResults(reports: readonly Report[], allLabel = "All reports"): ResultCountsRow[] {
  const all = empty(allLabel);
  const byProject = new Map<string, ResultCountsRow>();
  for (const report of reports) {
    all[report.result] += 1;
    const name = report.project ?? NO_PROJECT_LABEL;
    let row = byProject.get(name);
    if (!row) {
      row = empty(name);
      byProject.set(name, row);
    }
    row[report.result] += 1;
  }
  const projects = [...byProject.values()].sort((a, b) => totalOf(b) - totalOf(a) || a.label.localeCompare(b.label));
  const shown = projects.slice(0, DASHBOARD_MAX_PROJECT_ROWS);
  const rest = projects.slice(DASHBOARD_MAX_PROJECT_ROWS);
  if (rest.length > 0) {
    const other = empty(`${rest.length} other ${rest.length === 1 ? "project" : "projects"}`);
    for (const row of rest) {
      other.good += row.good;
      other.decent += row.decent;
      other.bad += row.bad;
    }
    shown.push(other);
  }
  return [all, ...shown];
}

/** A purchase check's outcome as the dashboard counts it: "expired" is a valid code whose support had ended. */
export type CheckShareKey = "valid" | "expired" | "invalid" | "failed";

export const CHECK_SHARE_LABELS: Record<CheckShareKey, string> = {
  valid: "Valid",
  expired: "Support expired",
  invalid: "Invalid",
  failed: "Failed",
};

export interface CheckShare {
  key: CheckShareKey;
  label: string;
  count: number;
  /** Whole percent; the shares of a non-empty day add up to exactly 100. */
  percent: number;
}

/**
 * Each outcome's share of the checks, in a fixed order (valid, expired, invalid, failed). Percentages are
 * rounded by largest remainder so that they add up to 100 (three thirds read 34, 33, 33, never 33, 33, 33).
 */
export function checkShares(counts: Readonly<Record<CheckShareKey, number>>): CheckShare[] {
  const keys: CheckShareKey[] = ["valid", "expired", "invalid", "failed"];
  const total = keys.reduce((sum, key) => sum + counts[key], 0);
  const exact = keys.map((key) => (total === 0 ? 0 : (counts[key] / total) * 100));
  const percent = exact.map(Math.floor);
  let left = total === 0 ? 0 : 100 - percent.reduce((sum, n) => sum + n, 0);
  // Hand out the points lost to rounding down, biggest remainder first (ties: the earlier outcome).
  const byRemainder = keys
    .map((_, i) => i)
    .sort((a, b) => exact[b]! - percent[b]! - (exact[a]! - percent[a]!) || a - b);
  for (const i of byRemainder) {
    if (left <= 0) break;
    percent[i]! += 1;
    left -= 1;
  }
  return keys.map((key, i) => ({ key, label: CHECK_SHARE_LABELS[key], count: counts[key], percent: percent[i]! }));
}
