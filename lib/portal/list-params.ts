// List views keep their whole state in the URL (search, filters, sort, page size, page), so a link reproduces
// the view and Back works. The reports, projects and alerts lists use the portal API's own parameter names, so the
// page's query string is also the query of its /api request, and it is read with the API's own field rules
// (lib/contract/reports.ts, projects.ts and alerts.ts, in zod/mini: small enough for the browser). Pure: used by server pages and client views.
import { ALERT_LIST_FIELDS, type AlertListQuery } from "@/lib/contract/alerts";
import { PROJECT_LIST_FIELDS, type ProjectListQuery } from "@/lib/contract/projects";
import { page, perPage } from "@/lib/contract/fields";
import { REPORT_LIST_FIELDS, type ReportListQuery } from "@/lib/contract/reports";
import {
  DEFAULT_PER_PAGE,
  DEFAULT_SORT,
  isOneOf,
  MAX_USER_FILTER_LENGTH,
  type REPORT_SORT_FIELDS,
  type SORT_DIRECTIONS,
} from "@/lib/contract/values";

/** Next's `searchParams` (a value may repeat) or a browser URLSearchParams. */
export type SearchParamsRecord = Record<string, string | string[] | undefined>;
export type SearchParamsInput = SearchParamsRecord | URLSearchParams;

export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** One parameter, trimmed; absent when missing or empty. */
export function readParam(params: SearchParamsInput, name: string): string | undefined {
  const value = params instanceof URLSearchParams ? (params.get(name) ?? undefined) : firstValue(params[name]);
  const trimmed = value?.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** One parameter, kept only when it is one of `values`. */
export function readOneOf<T extends string>(
  params: SearchParamsInput,
  name: string,
  values: readonly T[],
): T | undefined {
  const value = readParam(params, name);
  return isOneOf(values, value) ? value : undefined;
}

/** The query string of a list view (with "?" when not empty), parameters in a stable order. */
export function queryString(query: object, order: readonly string[]): string {
  const values = query as Record<string, string | number | undefined>;
  const params = new URLSearchParams();
  for (const name of order) {
    const value = values[name];
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  const result = params.toString();
  return result ? `?${result}` : "";
}

/** The fields of a list's query, each one a zod/mini schema of a string (lib/contract/reports.ts, projects.ts). */
type QueryFields = Record<string, { safeParse(value: unknown): { success: boolean; data?: unknown } }>;

/**
 * A list's URL read with its fields' rules, each parameter on its own: a value the contract would refuse is
 * dropped (that parameter falls back to its default) instead of failing the whole page over a stale or
 * hand-edited link. Unknown parameters, and `omit`ted ones, are ignored.
 */
function readQuery<Q>(fields: QueryFields, params: SearchParamsInput, omit: readonly string[] = []): Q {
  const query: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = omit.includes(name) ? undefined : readParam(params, name);
    if (value === undefined) continue;
    const parsed = field.safeParse(value);
    if (parsed.success) query[name] = parsed.data;
  }
  return query as Q;
}

// ---------------------------------------------------------------------------------------------------------
// Reports

/** The filters the audit log and purchase history views share: who, a day range, and paging. */
export interface WhoWhenPagingQuery {
  /** An email or a user id. */
  user?: string;
  /** YYYY-MM-DD (the whole day, UTC, as the API reads a bare date). */
  from?: string;
  to?: string;
  per_page?: number;
  page?: number;
}

// The page size's stated default is the API's documentation only; any list's choices are the same.
const PAGING_FIELDS = { per_page: perPage(DEFAULT_PER_PAGE.audit), page };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
function isDay(value: string | undefined): value is string {
  return value !== undefined && DAY.test(value) && !Number.isNaN(Date.parse(value));
}

export function parseWhoWhenPaging(params: SearchParamsInput): WhoWhenPagingQuery {
  const query: WhoWhenPagingQuery = {};
  const user = readParam(params, "user");
  if (user && user.length <= MAX_USER_FILTER_LENGTH && !/[\u0000-\u001f\u007f]/.test(user)) query.user = user;
  const from = readParam(params, "from");
  const to = readParam(params, "to");
  if (isDay(from)) query.from = from;
  // A range that ends before it starts finds nothing by definition; keep the start and drop the end.
  if (isDay(to) && !(query.from && to < query.from)) query.to = to;
  return { ...query, ...readQuery<WhoWhenPagingQuery>(PAGING_FIELDS, params) };
}

/**
 * The reports page opens newest generated first, the order people look for; the API's own default (sort_by=id,
 * the order of creation) is left as documented for scripts. The page's URL stays short: a view without a sort
 * asks the API for this one explicitly (reportViewRequest).
 */
export const REPORT_DEFAULTS = {
  sort_by: "generated_at",
  sort: "desc",
  per_page: DEFAULT_PER_PAGE.reports,
  page: 1,
} as const satisfies {
  sort_by: (typeof REPORT_SORT_FIELDS)[number];
  sort: (typeof SORT_DIRECTIONS)[number];
  per_page: number;
  page: number;
};
const REPORT_PARAM_ORDER = ["search", "project", "result", "sort_by", "sort", "per_page", "page"] as const;

// search_by has one possible value and is left out, which keeps links short.
export function parseReportListParams(params: SearchParamsInput): ReportListQuery {
  return readQuery(REPORT_LIST_FIELDS, params, ["search_by"]);
}

export function reportListQueryString(query: ReportListQuery): string {
  return queryString(query, REPORT_PARAM_ORDER);
}

/** What the reports page asks the API for: its view, with the page's default sort when the URL names none. */
export function reportViewRequest(query: ReportListQuery): ReportListQuery {
  return { ...query, sort_by: query.sort_by ?? REPORT_DEFAULTS.sort_by, sort: query.sort ?? REPORT_DEFAULTS.sort };
}

// ---------------------------------------------------------------------------------------------------------
// Projects

export const PROJECT_DEFAULTS = { ...DEFAULT_SORT.projects, per_page: DEFAULT_PER_PAGE.projects, page: 1 } as const;
const PROJECT_PARAM_ORDER = ["search", "sort_by", "sort", "per_page", "page"] as const;

export function parseProjectListParams(params: SearchParamsInput): ProjectListQuery {
  return readQuery(PROJECT_LIST_FIELDS, params, ["search_by"]);
}

export function projectListQueryString(query: ProjectListQuery): string {
  return queryString(query, PROJECT_PARAM_ORDER);
}

// ---------------------------------------------------------------------------------------------------------
// Alerts

const ALERT_PARAM_ORDER = ["status", "project", "to", "per_page", "page"] as const;

export function parseAlertListParams(params: SearchParamsInput): AlertListQuery {
  return readQuery(ALERT_LIST_FIELDS, params);
}

export function alertListQueryString(query: AlertListQuery): string {
  return queryString(query, ALERT_PARAM_ORDER);
}

// ---------------------------------------------------------------------------------------------------------

/** The filters of a list, declared once by its view: what the view's controls narrow, and how. */
export interface ListFilters<Q> {
  /** How many filters are set (differ from their default, "not set"): the N of the phone's "Filters (N)". */
  count: (query: Q) => number;
  /** Whether search or a filter narrows the view (then "Clear search and filters" shows). */
  filtered: (query: Q) => boolean;
  /** The view without its filters; search, sort and page size stay (the sheet's Clear). */
  cleared: (query: Q) => Q;
}

/**
 * Declares a list's filters. Search, sort, page size and page are not filters: `search` names the search
 * parameter, which counts as narrowing the view but not in "Filters (N)" (it has a field of its own).
 */
export function listFilters<Q extends { page?: number }>(
  names: ReadonlyArray<keyof Q & string>,
  search?: keyof Q & string,
): ListFilters<Q> {
  const isSet = (query: Q, name: keyof Q) => {
    const value = query[name] as unknown;
    return value !== undefined && value !== null && value !== "";
  };
  return {
    count: (query) => names.filter((name) => isSet(query, name)).length,
    filtered: (query) => names.some((name) => isSet(query, name)) || (search !== undefined && isSet(query, search)),
    cleared: (query) => withChanges(query, Object.fromEntries(names.map((name) => [name, undefined])) as Partial<Q>),
  };
}

/**
 * A list query changed by `patch`. Changing anything but the page goes back to page 1: page 4 of another
 * filter or page size is another set of rows. `undefined` or "" in the patch removes the parameter.
 */
export function withChanges<Q extends { page?: number }>(query: Q, patch: Partial<Q>): Q {
  const next: Record<string, unknown> = { ...query, ...patch };
  if (!("page" in patch)) delete next.page;
  for (const [name, value] of Object.entries(next)) {
    if (value === undefined || value === "") delete next[name];
  }
  if (next.page === 1) delete next.page;
  return next as Q;
}
