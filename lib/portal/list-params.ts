// List views keep their whole state in the URL (search, filters, sort, page size, page), so a link reproduces
// the view and Back works. The reports and projects lists use the portal API's own parameter names, so the
// page's query string is also the query of its /api request. Pure: used by server pages and client views. The
// allowed values are the contract's own (lib/contract/values.ts, no zod).
import type { ProjectListQuery } from "@/lib/contract/projects";
import type { ReportListQuery } from "@/lib/contract/reports";
import {
  DEFAULT_PER_PAGE,
  DEFAULT_SORT,
  isOneOf,
  MAX_SEARCH_LENGTH,
  MAX_USER_FILTER_LENGTH,
  PER_PAGE_CHOICES,
  PROJECT_SORT_FIELDS,
  REPORT_RESULTS,
  REPORT_SORT_FIELDS,
  SORT_DIRECTIONS,
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

// The contract refuses control characters and more than 255 characters in search text and names.
function text(value: string | undefined): string | undefined {
  if (value === undefined || value.length > MAX_SEARCH_LENGTH) return undefined;
  return /[\u0000-\u001f\u007f]/.test(value) ? undefined : value;
}

/** A page size the contract accepts, or undefined. */
export function perPage(value: string | undefined): number | undefined {
  const n = Number(value);
  return isOneOf(PER_PAGE_CHOICES, n) ? n : undefined;
}

/** A page number the contract accepts, or undefined. */
export function page(value: string | undefined): number | undefined {
  return value !== undefined && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined;
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

function defined<T extends object>(query: T): T {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as T;
}

// Each parameter is checked on its own; a value the contract would refuse is dropped (that parameter falls
// back to its default) instead of failing the whole page over a stale or hand-edited link. Unknown parameters
// are ignored. search_by has one possible value and is left out, which keeps links short.

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
  const size = perPage(readParam(params, "per_page"));
  if (size !== undefined) query.per_page = size;
  const number = page(readParam(params, "page"));
  if (number !== undefined) query.page = number;
  return query;
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

export function parseReportListParams(params: SearchParamsInput): ReportListQuery {
  return defined({
    search: text(readParam(params, "search")),
    project: text(readParam(params, "project")),
    result: readOneOf(params, "result", REPORT_RESULTS),
    sort_by: readOneOf(params, "sort_by", REPORT_SORT_FIELDS),
    sort: readOneOf(params, "sort", SORT_DIRECTIONS),
    per_page: perPage(readParam(params, "per_page")),
    page: page(readParam(params, "page")),
  });
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
  return defined({
    search: text(readParam(params, "search")),
    sort_by: readOneOf(params, "sort_by", PROJECT_SORT_FIELDS),
    sort: readOneOf(params, "sort", SORT_DIRECTIONS),
    per_page: perPage(readParam(params, "per_page")),
    page: page(readParam(params, "page")),
  });
}

export function projectListQueryString(query: ProjectListQuery): string {
  return queryString(query, PROJECT_PARAM_ORDER);
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
