// The purchase history view's URL: filters (outcome, item, user, helpdesk ticket, from, to) and paging, read leniently like the
// other lists (a bad value is dropped rather than failing the page). Pure and zod-free, for server page and
// browser alike.
//
// A full purchase code searched for is deliberately in NO URL — neither the page's nor the API's: Gatehouse keeps
// only a keyed hash of codes, and a URL ends up in browser history, shared links, downloads and proxies' access
// logs. The code goes only into the body of POST /api/purchases/history/search (and .../search.csv), which the
// gateway hashes at once.
import {
  DEFAULT_PER_PAGE,
  HELPDESK_TICKET_FILTER,
  PURCHASE_OUTCOMES,
  type PurchaseCheckSource,
  type PurchaseOutcome,
} from "@/lib/contract/values";

import {
  parseWhoWhenPaging,
  queryString,
  readOneOf,
  readParam,
  type SearchParamsInput,
  type WhoWhenPagingQuery,
} from "./list-params";

export interface HistoryViewQuery extends WhoWhenPagingQuery {
  outcome?: PurchaseOutcome;
  item_id?: number;
  /** A helpdesk ticket, `helpscout:123`: its checks only. */
  ticket?: string;
}

const FILTER_ORDER = ["outcome", "item_id", "user", "ticket", "from", "to"] as const;

/** A ticket as the history's filter and the checker's address name it (`helpscout:123`), or undefined. */
export function readTicket(value: string | undefined | null): string | undefined {
  return value && HELPDESK_TICKET_FILTER.test(value) ? value : undefined;
}

export function parseHistoryParams(params: SearchParamsInput): HistoryViewQuery {
  const query: HistoryViewQuery = parseWhoWhenPaging(params);
  const outcome = readOneOf(params, "outcome", PURCHASE_OUTCOMES);
  if (outcome) query.outcome = outcome;
  const itemId = readParam(params, "item_id");
  if (itemId && /^[1-9]\d{0,14}$/.test(itemId)) query.item_id = Number(itemId);
  const ticket = readTicket(readParam(params, "ticket"));
  if (ticket) query.ticket = ticket;
  return query;
}

function build(query: HistoryViewQuery, paging: boolean): string {
  return queryString(query, paging ? [...FILTER_ORDER, "per_page", "page"] : FILTER_ORDER);
}

/**
 * The API's filters: the view's, and the person's time zone, in which the API reads the days of from and to (the
 * page's own URL leaves it out: a link shared with someone elsewhere means his days). The CSV gives its times in
 * the zone too, so it goes there always.
 */
function withZone(query: HistoryViewQuery, zone: string, always = false): HistoryApiQuery {
  return always || query.from !== undefined || query.to !== undefined ? { ...query, time_zone: zone } : query;
}

interface HistoryApiQuery extends HistoryViewQuery {
  time_zone?: string;
}

const API_ORDER = [...FILTER_ORDER, "time_zone"] as const;

/** The page's own query string (never a code). */
export function historyQueryString(query: HistoryViewQuery): string {
  return build(query, true);
}

/** GET /api/purchases/history with the view's filters, read in the person's time zone, and its page (never a code). */
export function historyApiPath(query: HistoryViewQuery, zone: string): string {
  const api = withZone({ ...query, per_page: query.per_page ?? DEFAULT_PER_PAGE.purchaseHistory }, zone);
  return `/api/purchases/history${queryString(api, [...API_ORDER, "per_page", "page"])}`;
}

/** GET /api/purchases/history.csv: the same filters, every page, times in the person's zone (never a code). */
export function historyCsvPath(query: HistoryViewQuery, zone: string): string {
  return `/api/purchases/history.csv${queryString(withZone(query, zone, true), API_ORDER)}`;
}

export const HISTORY_SEARCH_PATH = "/api/purchases/history/search";
export const HISTORY_SEARCH_CSV_PATH = "/api/purchases/history/search.csv";

/** The body of POST /api/purchases/history/search(.csv): the code searched for, the view's filters and page. */
export interface HistorySearchBody {
  code: string;
  outcome?: PurchaseOutcome;
  item_id?: number;
  user?: string;
  ticket?: string;
  from?: string;
  to?: string;
  time_zone?: string;
  per_page?: number;
  page?: number;
}

export function historySearchBody(query: HistoryViewQuery, code: string, zone: string): HistorySearchBody {
  const body: HistorySearchBody = { code };
  const api = withZone(query, zone);
  for (const name of API_ORDER) {
    const value = api[name];
    if (value !== undefined && value !== "") (body as unknown as Record<string, unknown>)[name] = value;
  }
  body.per_page = query.per_page ?? DEFAULT_PER_PAGE.purchaseHistory;
  if (query.page !== undefined) body.page = query.page;
  return body;
}

export const OUTCOME_LABELS: Record<PurchaseOutcome, string> = {
  valid: "Valid",
  invalid: "Invalid",
  revoked: "Revoked",
  failed: "Failed",
};

/** Where a check was asked, in the history's words. */
export const SOURCE_LABELS: Record<PurchaseCheckSource, string> = {
  single: "Single check",
  bulk: "Bulk check",
  helpdesk: "Helpdesk lookup",
  sweep: "Re-check by Gatehouse",
  licence: "Licence activation",
};
