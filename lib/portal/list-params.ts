// List views keep their whole state in the URL (search, filters, sort, page size, page), so a link reproduces
// the view and Back works. The reports and projects lists use the portal API's own parameter names, so the
// page's query string is also the query of its /api request. Pure: used by server pages and client views.
//
// The allowed values repeat those of lib/api/schemas.ts on purpose: that module builds zod schemas when it
// loads, and importing any value from it would put zod in the browser's bundle. tests/portal/list-params.test.ts
// checks that both agree.
import type { ProjectListQuery } from "@/lib/contract/projects";
import type { ReportListQuery } from "@/lib/contract/reports";

/** Next's `searchParams` (a value may repeat) or a browser URLSearchParams. */
export type SearchParamsRecord = Record<string, string | string[] | undefined>;
export type SearchParamsInput = SearchParamsRecord | URLSearchParams;

export const RESULT_VALUES = ["good", "decent", "bad"] as const;
export const PER_PAGE_CHOICES = [10, 25, 50, 100] as const;
export const REPORT_SORT_KEYS = ["id", "generated_at", "url", "result"] as const;
export const PROJECT_SORT_KEYS = ["created_at", "project"] as const;
export const MAX_SEARCH_LENGTH = 255;

export type SortKeyOfReports = (typeof REPORT_SORT_KEYS)[number];
export type SortKeyOfProjects = (typeof PROJECT_SORT_KEYS)[number];

export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** One parameter, trimmed; absent when missing or empty. */
export function readParam(params: SearchParamsInput, name: string): string | undefined {
  const value = params instanceof URLSearchParams ? (params.get(name) ?? undefined) : firstValue(params[name]);
  const trimmed = value?.trim();
  return trimmed === "" ? undefined : trimmed;
}

function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | undefined {
  return value !== undefined && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

// The contract refuses control characters and more than 255 characters in search text and names.
function text(value: string | undefined): string | undefined {
  if (value === undefined || value.length > MAX_SEARCH_LENGTH) return undefined;
  return /[\u0000-\u001f\u007f]/.test(value) ? undefined : value;
}

function perPage(value: string | undefined): number | undefined {
  const n = Number(value);
  return (PER_PAGE_CHOICES as readonly number[]).includes(n) ? n : undefined;
}

function page(value: string | undefined): number | undefined {
  return value !== undefined && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined;
}

/** The query string of a list view (with "?" when not empty), parameters in a stable order. */
function queryString(query: object, order: readonly string[]): string {
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
  if (user && user.length <= 320 && !/[\u0000-\u001f\u007f]/.test(user)) query.user = user;
  const from = readParam(params, "from");
  const to = readParam(params, "to");
  if (isDay(from)) query.from = from;
  // A range that ends before it starts finds nothing by definition; keep the start and drop the end.
  if (isDay(to) && !(query.from && to < query.from)) query.to = to;
  const perPage = Number(readParam(params, "per_page"));
  if ((PER_PAGE_CHOICES as readonly number[]).includes(perPage)) query.per_page = perPage;
  const page = readParam(params, "page");
  if (page && /^[1-9]\d{0,5}$/.test(page)) query.page = Number(page);
  return query;
}

export const REPORT_DEFAULTS = { sort_by: "id", sort: "desc", per_page: 10, page: 1 } as const;
const REPORT_PARAM_ORDER = ["search", "project", "result", "sort_by", "sort", "per_page", "page"] as const;

export function parseReportListParams(params: SearchParamsInput): ReportListQuery {
  return defined({
    search: text(readParam(params, "search")),
    project: text(readParam(params, "project")),
    result: oneOf(RESULT_VALUES, readParam(params, "result")),
    sort_by: oneOf(REPORT_SORT_KEYS, readParam(params, "sort_by")),
    sort: oneOf(["asc", "desc"] as const, readParam(params, "sort")),
    per_page: perPage(readParam(params, "per_page")),
    page: page(readParam(params, "page")),
  });
}

export function reportListQueryString(query: ReportListQuery): string {
  return queryString(query, REPORT_PARAM_ORDER);
}

// ---------------------------------------------------------------------------------------------------------
// Projects

export const PROJECT_DEFAULTS = { sort_by: "created_at", sort: "desc", per_page: 10, page: 1 } as const;
const PROJECT_PARAM_ORDER = ["search", "sort_by", "sort", "per_page", "page"] as const;

export function parseProjectListParams(params: SearchParamsInput): ProjectListQuery {
  return defined({
    search: text(readParam(params, "search")),
    sort_by: oneOf(PROJECT_SORT_KEYS, readParam(params, "sort_by")),
    sort: oneOf(["asc", "desc"] as const, readParam(params, "sort")),
    per_page: perPage(readParam(params, "per_page")),
    page: page(readParam(params, "page")),
  });
}

export function projectListQueryString(query: ProjectListQuery): string {
  return queryString(query, PROJECT_PARAM_ORDER);
}

// ---------------------------------------------------------------------------------------------------------

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
