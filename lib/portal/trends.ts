// What the trend views share: the range a page shows (?days=30|90|365), the project mix's sort, and how a
// report's timeline and an alert are said in words. Pure: no zod, no store (pages and components import it).
import type { ProjectMix } from "@/lib/contract/history";
import { DEFAULT_TREND_DAYS, TREND_DAYS, type TrendDays } from "@/lib/contract/values";

/** The range in a page's search params; an unknown value falls back to the default (a link, not a form). */
export function trendDaysParam(params: Record<string, string | string[] | undefined>): TrendDays {
  const raw = params.days;
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return (TREND_DAYS as readonly number[]).includes(value) ? (value as TrendDays) : DEFAULT_TREND_DAYS;
}

export const MIX_SORT_KEYS = ["project", "reports", "good", "decent", "bad", "bad_share"] as const;
export type MixSortKey = (typeof MIX_SORT_KEYS)[number];

export const MIX_SORT_LABELS: Record<MixSortKey, string> = {
  project: "Project",
  reports: "Reports",
  good: "Good",
  decent: "Decent",
  bad: "Bad",
  bad_share: "Bad share",
};

export const NO_PROJECT = "No project";

const badShare = (row: ProjectMix) => (row.reports === 0 ? 0 : row.bad / row.reports);

/** The mix sorted by a column; ties by project name, so the order is stable. */
export function sortMixes(rows: readonly ProjectMix[], key: MixSortKey, direction: "asc" | "desc"): ProjectMix[] {
  const sign = direction === "asc" ? 1 : -1;
  const name = (row: ProjectMix) => row.project ?? NO_PROJECT;
  const value = (row: ProjectMix): number | string =>
    key === "project" ? name(row).toLowerCase() : key === "bad_share" ? badShare(row) : row[key];
  return [...rows].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    const primary = x < y ? -1 : x > y ? 1 : 0;
    return primary !== 0 ? sign * primary : name(a).localeCompare(name(b));
  });
}

/** "12%" */
export const percent = (part: number, whole: number): string =>
  whole === 0 ? "0%" : `${Math.round((part / whole) * 100)}%`;

/**
 * A project's page over time. The name is a path segment followed by /overview: project names are host names
 * ("acme-tools.io"), and a path ending in ".io" would be taken for a file (proxy.ts gives files no page policy).
 */
export const projectOverviewHref = (project: string, days?: number): string =>
  `/projects/${encodeURIComponent(project)}/overview${days === undefined ? "" : `?days=${days}`}`;

/**
 * The project name in a page's path segment. Decoded once when it still holds %-escapes; a name that is not a
 * valid escape sequence ("50% off", as a segment already decoded) is taken as it is instead of failing the page.
 */
export function projectFromSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
