// The items list done in the portal: search, category, sort, pages — over 2,000 items from the sandbox's
// deterministic seed, the size the issue asks to stay fast with (timings printed, never asserted).
import { describe, expect, it } from "vitest";

import type { Item } from "@/lib/contract/items";
import { DEFAULT_ITEM_QUERY, itemQueryString, parseItemQuery, queryItems, type ItemQuery } from "@/lib/portal/items";
import { seedSellers } from "@/lib/sandbox/seed";

const ITEMS: Item[] = seedSellers(2000).main.items;
const query = (patch: Partial<ItemQuery> = {}): ItemQuery => ({ ...DEFAULT_ITEM_QUERY, ...patch });

describe("parseItemQuery / itemQueryString", () => {
  it("reads the URL leniently: a bad value falls back to its default", () => {
    expect(parseItemQuery({})).toEqual(DEFAULT_ITEM_QUERY);
    expect(
      parseItemQuery({
        search: "  sting ",
        category: "Audio",
        sort_by: "price",
        sort: "desc",
        per_page: "50",
        page: "3",
      }),
    ).toEqual({
      search: "sting",
      category: "Audio",
      sort: "price",
      direction: "desc",
      perPage: 50,
      page: 3,
    });
    expect(parseItemQuery({ sort_by: "colour", sort: "up", per_page: "7", page: "0" })).toEqual(DEFAULT_ITEM_QUERY);
    // Without a direction, each sort starts its natural way: newest first for dates.
    expect(parseItemQuery(new URLSearchParams("sort_by=published_at")).direction).toBe("desc");
  });

  it("writes only what differs from the defaults, and reads back what it wrote", () => {
    expect(itemQueryString(DEFAULT_ITEM_QUERY)).toBe("");
    const view = query({ search: "a b&c", category: "Video", sort: "price", direction: "asc", perPage: 100, page: 2 });
    const text = itemQueryString(view);
    expect(text).toBe("?search=a+b%26c&category=Video&sort_by=price&sort=asc&per_page=100&page=2");
    expect(parseItemQuery(new URLSearchParams(text.slice(1)))).toEqual(view);
  });
});

describe("queryItems over 2,000 items", () => {
  it("pages the whole list and lists every category once", () => {
    const page = queryItems(ITEMS, query({ perPage: 100, page: 3 }));
    expect(page.total).toBe(2000);
    expect(page.lastPage).toBe(20);
    expect(page.rows).toHaveLength(100);
    expect(page.categories).toEqual([...new Set(ITEMS.map((item) => item.category))].sort());
  });

  it("searches names, categories and tags case-insensitively, within a category", () => {
    const page = queryItems(ITEMS, query({ search: "STING", category: "Audio", perPage: 100 }));
    expect(page.total).toBeGreaterThan(0);
    for (const item of page.rows) {
      expect(item.category).toBe("Audio");
      const haystack = [item.name, item.category, item.sub_category ?? "", ...item.tags].join(" ").toLowerCase();
      expect(haystack).toContain("sting");
    }
  });

  it("sorts by name, price and date both ways, ties in id order, so pages never overlap", () => {
    for (const sort of ["name", "price", "published_at"] as const) {
      for (const direction of ["asc", "desc"] as const) {
        const seen = new Set<number>();
        let previous: Item | undefined;
        for (let page = 1; page <= 20; page++) {
          for (const item of queryItems(ITEMS, query({ sort, direction, perPage: 100, page })).rows) {
            expect(seen.has(item.id)).toBe(false);
            seen.add(item.id);
            if (previous && sort === "price") {
              const step = item.price.regular - previous.price.regular;
              expect(direction === "asc" ? step >= 0 : step <= 0).toBe(true);
            }
            if (previous && sort === "published_at") {
              expect(
                direction === "asc"
                  ? item.published_at >= previous.published_at
                  : item.published_at <= previous.published_at,
              ).toBe(true);
            }
            previous = item;
          }
        }
        expect(seen.size).toBe(2000);
      }
    }
    const names = queryItems(ITEMS, query({ sort: "name", perPage: 100 })).rows.map((item) => item.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base", numeric: true })));
  });

  it("a page past the end shows the last page; no match is an empty page", () => {
    const last = queryItems(ITEMS, query({ perPage: 25, page: 999 }));
    expect(last.page).toBe(80);
    expect(last.rows).toHaveLength(25);
    const none = queryItems(ITEMS, query({ search: "no such item anywhere" }));
    expect(none).toMatchObject({ total: 0, page: 1, lastPage: 1, rows: [] });
  });

  it("stays fast: prints the median time of a search + sort + page", () => {
    const runs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      queryItems(
        ITEMS,
        query({
          search: i % 2 ? "pro" : "",
          sort: (["name", "price", "published_at"] as const)[i % 3],
          perPage: 100,
          page: 2,
        }),
      );
      runs.push(performance.now() - started);
    }
    runs.sort((a, b) => a - b);
    console.log(
      `queryItems over ${ITEMS.length} items: median ${runs[15]?.toFixed(2)} ms, slowest ${runs[29]?.toFixed(2)} ms`,
    );
    expect(runs).toHaveLength(30);
  });
});
