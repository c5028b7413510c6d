// The items list is searched, filtered, sorted and paged here, in the portal: the upstream's items/all returns
// every item at once (the document shows no pagination). Pure functions over the list the server fetched, so
// the page sends the browser one page of rows, not thousands of items. Measured with 2,000 items in
// tests/unit/lib/portal/items.test.ts.
import type { Item } from "@/lib/contract/items";

import { DEFAULT_PER_PAGE, isOneOf, MAX_SEARCH_LENGTH, PER_PAGE_CHOICES } from "@/lib/contract/values";

import { readParam, type SearchParamsInput } from "./list-params";

export const ITEM_SORT_KEYS = ["name", "price", "published_at"] as const;
export type ItemSortKey = (typeof ITEM_SORT_KEYS)[number];

export interface ItemQuery {
  /** Matched case-insensitively against name, category, sub-category and tags. */
  search: string;
  /** Exact category; "" for all. */
  category: string;
  sort: ItemSortKey;
  direction: "asc" | "desc";
  page: number;
  perPage: number;
}

export const DEFAULT_ITEM_QUERY: ItemQuery = {
  search: "",
  category: "",
  sort: "name",
  direction: "asc",
  page: 1,
  perPage: DEFAULT_PER_PAGE.items,
};

/** The first direction of each sort: names A→Z, prices low→high, newest first. */
export const ITEM_SORT_FIRST_DIRECTION: Record<ItemSortKey, "asc" | "desc"> = {
  name: "asc",
  price: "asc",
  published_at: "desc",
};

/**
 * Reads the list's URL. Lenient on purpose: a hand-edited or stale link with a bad value still opens the list
 * (with that value at its default) rather than an error page.
 */
export function parseItemQuery(params: SearchParamsInput): ItemQuery {
  const search = (readParam(params, "search") ?? "").slice(0, MAX_SEARCH_LENGTH);
  const category = (readParam(params, "category") ?? "").slice(0, MAX_SEARCH_LENGTH);
  const sortValue = readParam(params, "sort_by");
  const sort = (ITEM_SORT_KEYS as readonly string[]).includes(sortValue ?? "")
    ? (sortValue as ItemSortKey)
    : DEFAULT_ITEM_QUERY.sort;
  const directionValue = readParam(params, "sort");
  const direction =
    directionValue === "asc" || directionValue === "desc" ? directionValue : ITEM_SORT_FIRST_DIRECTION[sort];
  const perPageValue = Number(readParam(params, "per_page"));
  const perPage = isOneOf(PER_PAGE_CHOICES, perPageValue) ? perPageValue : DEFAULT_ITEM_QUERY.perPage;
  const pageValue = readParam(params, "page") ?? "";
  const page = /^[1-9]\d{0,5}$/.test(pageValue) ? Number(pageValue) : 1;
  return { search, category, sort, direction, page, perPage };
}

/** The URL query of a list view, leaving out what is at its default so that links stay short. */
export function itemQueryString(query: ItemQuery): string {
  const params = new URLSearchParams();
  if (query.search) params.set("search", query.search);
  if (query.category) params.set("category", query.category);
  if (query.sort !== DEFAULT_ITEM_QUERY.sort || query.direction !== ITEM_SORT_FIRST_DIRECTION[query.sort]) {
    params.set("sort_by", query.sort);
    params.set("sort", query.direction);
  }
  if (query.perPage !== DEFAULT_ITEM_QUERY.perPage) params.set("per_page", String(query.perPage));
  if (query.page !== 1) params.set("page", String(query.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export interface ItemPage {
  rows: Item[];
  /** Items matching search and category. */
  total: number;
  /** The page shown: the asked one, or the last when it asked past the end. */
  page: number;
  lastPage: number;
  /** Every category of the whole list, sorted, for the filter. */
  categories: string[];
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

function matches(item: Item, needle: string): boolean {
  if (item.name.toLowerCase().includes(needle)) return true;
  if (item.category.toLowerCase().includes(needle)) return true;
  if (item.sub_category?.toLowerCase().includes(needle)) return true;
  return item.tags.some((tag) => tag.toLowerCase().includes(needle));
}

function compare(sort: ItemSortKey): (a: Item, b: Item) => number {
  switch (sort) {
    case "name":
      return (a, b) => collator.compare(a.name, b.name);
    case "price":
      // Amounts compare as numbers; a list mixing currencies would need rates the upstream does not give.
      return (a, b) => a.price.regular - b.price.regular;
    case "published_at":
      // ISO 8601 UTC strings of one format sort as text.
      return (a, b) => (a.published_at < b.published_at ? -1 : a.published_at > b.published_at ? 1 : 0);
  }
}

export function queryItems(items: readonly Item[], query: ItemQuery): ItemPage {
  const categories = [...new Set(items.map((item) => item.category))].sort(collator.compare);
  const needle = query.search.toLowerCase();
  const filtered = items.filter(
    (item) => (query.category === "" || item.category === query.category) && (needle === "" || matches(item, needle)),
  );
  const byKey = compare(query.sort);
  const sign = query.direction === "asc" ? 1 : -1;
  // Ties fall back to the id, in the same direction, so that pages never overlap or skip an item.
  filtered.sort((a, b) => sign * (byKey(a, b) || a.id - b.id));
  const lastPage = Math.max(1, Math.ceil(filtered.length / query.perPage));
  const page = Math.min(query.page, lastPage);
  const start = (page - 1) * query.perPage;
  return { rows: filtered.slice(start, start + query.perPage), total: filtered.length, page, lastPage, categories };
}
