// The purchase history view's URL: filters (outcome, item, user, from, to) and paging, read leniently like the
// other lists (a bad value is dropped rather than failing the page). Pure and zod-free, for server page and
// browser alike.
//
// A full purchase code searched for is deliberately NOT part of the page's URL: Gatehouse keeps only a keyed
// hash of codes, and a URL ends up in browser history and shared links. The code goes only into the API
// request (GET /api/purchases/history?code=…), which the gateway hashes at once.
import { parseWhoWhenPaging, readParam, type SearchParamsInput, type WhoWhenPagingQuery } from "./list-params";

/** The same values as PURCHASE_OUTCOMES in lib/api/schemas.ts (tests/portal/purchase-pages.test.ts checks). */
export const HISTORY_OUTCOMES = ["valid", "invalid", "failed"] as const;
export type HistoryOutcome = (typeof HISTORY_OUTCOMES)[number];

export interface HistoryViewQuery extends WhoWhenPagingQuery {
  outcome?: HistoryOutcome;
  item_id?: number;
}

export const HISTORY_DEFAULT_PER_PAGE = 25;
const FILTER_ORDER = ["outcome", "item_id", "user", "from", "to"] as const;

export function parseHistoryParams(params: SearchParamsInput): HistoryViewQuery {
  const query: HistoryViewQuery = parseWhoWhenPaging(params);
  const outcome = readParam(params, "outcome");
  if (outcome && (HISTORY_OUTCOMES as readonly string[]).includes(outcome)) query.outcome = outcome as HistoryOutcome;
  const itemId = readParam(params, "item_id");
  if (itemId && /^[1-9]\d{0,14}$/.test(itemId)) query.item_id = Number(itemId);
  return query;
}

function build(query: HistoryViewQuery, code: string | undefined, paging: boolean): string {
  const params = new URLSearchParams();
  for (const name of FILTER_ORDER) {
    const value = query[name];
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  if (code) params.set("code", code);
  if (paging) {
    if (query.per_page !== undefined) params.set("per_page", String(query.per_page));
    if (query.page !== undefined) params.set("page", String(query.page));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The page's own query string (never a code). */
export function historyQueryString(query: HistoryViewQuery): string {
  return build(query, undefined, true);
}

/** GET /api/purchases/history with the view's filters, its page, and the code searched for (if any). */
export function historyApiPath(query: HistoryViewQuery, code?: string): string {
  return `/api/purchases/history${build({ ...query, per_page: query.per_page ?? HISTORY_DEFAULT_PER_PAGE }, code, true)}`;
}

/** GET /api/purchases/history.csv: the same filters and code, every page. */
export function historyCsvPath(query: HistoryViewQuery, code?: string): string {
  return `/api/purchases/history.csv${build(query, code, false)}`;
}

export const OUTCOME_LABELS: Record<HistoryOutcome, string> = { valid: "Valid", invalid: "Invalid", failed: "Failed" };
