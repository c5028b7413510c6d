// The UI kit's behaviour as HTML: what the server renders (react-dom/server), which is also what a page
// hydrates from. Interaction (dialogs, toasts, focus) is covered by the browser tests of the pages.
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { initials } from "@/components/media/avatar";
import { ScreenshotGallery } from "@/components/media/screenshot-gallery";
import { VideoPlayer } from "@/components/media/media-player";
import { PrivacyBadge, ResultBadge } from "@/components/ui/badge";
import { DataTable, nextSort, sortChoices, type Column } from "@/components/ui/data-table";
import { mixText, ResultMixBar } from "@/components/portal/result-mix-bar";
import { filtersButtonLabel } from "@/components/ui/filters-sheet";
import { LocalTime } from "@/components/ui/local-time";
import { Money } from "@/components/ui/money";
import { pageItems, Pagination } from "@/components/ui/pagination";
import { barSegments, ResultChart } from "@/components/ui/result-chart";
import { RowsTable } from "@/components/ui/rows-table";
import { axisMax, dayStack, TrendChart } from "@/components/ui/trend-chart";
import { SafeLink } from "@/components/ui/safe-link";
import { TextField } from "@/components/ui/text-field";
import { themeScript } from "@/components/theme-script";

const html = (element: Parameters<typeof renderToStaticMarkup>[0]) => renderToStaticMarkup(element);

describe("pageItems", () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 5, [1, 2, "gap", 5]],
    [4, 20, [1, 2, 3, 4, 5, "gap", 20]],
    [6, 20, [1, "gap", 5, 6, 7, "gap", 20]],
    [20, 20, [1, "gap", 19, 20]],
    [99, 20, [1, "gap", 19, 20]],
  ])("page %i of %i", (page, last, expected) => {
    expect(pageItems(page, last)).toEqual(expected);
  });
});

describe("Pagination", () => {
  const markup = html(h(Pagination, { page: 6, lastPage: 20, hrefFor: (p: number) => `/reports?page=${p}&sort=asc` }));
  it("links every page through hrefFor, so Back and new tabs work", () => {
    expect(markup).toContain('href="/reports?page=5&amp;sort=asc"');
    expect(markup).toContain('href="/reports?page=20&amp;sort=asc"');
  });
  it("marks the current page", () => {
    expect(markup).toMatch(/aria-current="page"[^>]*>|<a[^>]*aria-current="page"/);
    expect(markup.match(/aria-current="page"/g)).toHaveLength(1);
    expect(markup).toContain('aria-label="Page 6 of 20"');
  });
  it("has no Previous link on the first page", () => {
    const first = html(h(Pagination, { page: 1, lastPage: 3, hrefFor: (p: number) => `?page=${p}` }));
    expect(first).not.toContain('rel="prev"');
    expect(first).toContain('rel="next"');
  });
});

describe("SafeLink", () => {
  it("links http(s) URLs into a new tab without an opener", () => {
    const markup = html(h(SafeLink, { href: "https://example.com/" }));
    expect(markup).toContain('href="https://example.com/"');
    expect(markup).toContain('target="_blank"');
    expect(markup).toContain('rel="noopener noreferrer"');
  });
  it("shows anything else as text, never as a link", () => {
    const markup = html(h(SafeLink, { href: "javascript:alert(1)" }));
    expect(markup).not.toContain("<a");
    expect(markup).toContain("javascript:alert(1)");
  });
});

describe("badges carry words, not only colour", () => {
  it.each([
    ["good", "Good"],
    ["decent", "Decent"],
    ["bad", "Bad"],
  ] as const)("%s", (result, word) => {
    expect(html(h(ResultBadge, { result }))).toContain(word);
  });
  it("privacy", () => {
    expect(html(h(PrivacyBadge, { privacy: 2 }))).toContain("Password");
  });
});

describe("TextField", () => {
  it("wires the hint and the error to the input", () => {
    const markup = html(
      h(TextField, { name: "url", label: "URL", hint: "Starts with https://", error: "must be an http(s) URL" }),
    );
    expect(markup).toContain('for="field-url"');
    expect(markup).toContain('id="field-url"');
    expect(markup).toContain('aria-invalid="true"');
    expect(markup).toContain('aria-describedby="field-url-hint field-url-error"');
    expect(markup).toContain('id="field-url-error"');
  });
  it("is not invalid without an error", () => {
    const markup = html(h(TextField, { name: "url", label: "URL" }));
    expect(markup).not.toContain("aria-invalid");
    expect(markup).not.toContain("aria-describedby");
  });
});

interface Row {
  id: number;
  url: string;
}
const columns: Column<Row, "url" | "id">[] = [
  { id: "url", header: "URL", sortKey: "url", cell: (row) => row.url },
  { id: "id", header: "Created", sortKey: "id", firstDirection: "desc", cell: (row) => row.id },
];

describe("DataTable", () => {
  const base = { caption: "Reports", columns, rowKey: (row: Row) => row.id, onSortChange: () => {} };
  it("puts a button in sortable headers and aria-sort on the sorted one", () => {
    const markup = html(
      h(DataTable<Row, "url" | "id">, {
        ...base,
        rows: [{ id: 1, url: "https://a" }],
        sort: { by: "url", direction: "asc" },
      }),
    );
    expect(markup.match(/<button/g)).toHaveLength(2);
    expect(markup).toContain('aria-sort="ascending"');
    expect(markup.match(/aria-sort/g)).toHaveLength(1);
  });
  it("keeps the previous rows while loading, busy, with a progress bar", () => {
    const markup = html(
      h(DataTable<Row, "url" | "id">, { ...base, rows: [{ id: 1, url: "https://a" }], loading: true }),
    );
    expect(markup).toContain('aria-busy="true"');
    expect(markup).toContain('role="progressbar"');
    expect(markup).toContain("https://a");
  });
  it("shows skeleton rows on the first load", () => {
    const markup = html(h(DataTable<Row, "url" | "id">, { ...base, rows: undefined }));
    expect(markup).toContain('aria-busy="true"');
    expect(markup.match(/<tr aria-hidden="true"/g)).toHaveLength(5);
  });
  it("shows the empty state when there are no rows", () => {
    const markup = html(
      h(DataTable<Row, "url" | "id">, { ...base, rows: [], empty: h("p", null, "No reports match") }),
    );
    expect(markup).toContain("No reports match");
    expect(markup).not.toContain("<table");
  });
  it("shows the failure with a retry button instead of stale rows", () => {
    const markup = html(
      h(DataTable<Row, "url" | "id">, {
        ...base,
        rows: [{ id: 1, url: "https://a" }],
        error: { title: "The reports could not be loaded", onRetry: () => {} },
      }),
    );
    expect(markup).toContain('role="alert"');
    expect(markup).toContain("Try again");
    expect(markup).not.toContain("https://a");
  });
  it("flips the direction of the sorted column and starts others at their first direction", () => {
    expect(nextSort({ by: "url", direction: "asc" }, columns[0]!)).toEqual({ by: "url", direction: "desc" });
    expect(nextSort({ by: "url", direction: "asc" }, columns[1]!)).toEqual({ by: "id", direction: "desc" });
  });
  it("marks every cell of a primary column, header and body, with data-primary", () => {
    const primary: Column<Row, "url" | "id">[] = [
      { ...columns[0]!, priority: "primary", rowHeader: true },
      columns[1]!,
    ];
    const markup = html(
      h(DataTable<Row, "url" | "id">, {
        ...base,
        columns: primary,
        rows: [
          { id: 1, url: "https://a" },
          { id: 2, url: "https://b" },
        ],
      }),
    );
    expect(markup.match(/data-primary=""/g)).toHaveLength(3);
    // The other columns are labelled for the phone's card lines; the primary ones lead unlabelled.
    expect(markup.match(/data-label="Created"/g)).toHaveLength(2);
    expect(markup).not.toContain('data-label="URL"');
  });
  it("marks the cells of a deskOnly column, which a phone's card leaves out, with data-desk-only", () => {
    const thumbnail: Column<Row, "url" | "id"> = {
      id: "thumb",
      header: "",
      label: "",
      deskOnly: true,
      cell: (row) => h("img", { src: `${row.url}/t.png`, alt: "" }),
    };
    const markup = html(
      h(DataTable<Row, "url" | "id">, {
        ...base,
        columns: [thumbnail, ...columns],
        rows: [
          { id: 1, url: "https://a" },
          { id: 2, url: "https://b" },
        ],
      }),
    );
    expect(markup.match(/<td data-desk-only="">/g)).toHaveLength(2);
    expect(markup.match(/data-desk-only/g)).toHaveLength(2);
  });
  it("offers the phone a Sort select with the current sort chosen", () => {
    const markup = html(
      h(DataTable<Row, "url" | "id">, {
        ...base,
        rows: [{ id: 1, url: "https://a" }],
        sort: { by: "id", direction: "desc" },
      }),
    );
    expect(markup).toMatch(/<option value="id:desc" selected="">Created ↓ descending<\/option>/);
    expect(sortChoices(columns).map((choice) => choice.value)).toEqual(["url:asc", "url:desc", "id:desc", "id:asc"]);
  });
  it("says a fixed order in its header, with aria-sort, when the list cannot be re-sorted", () => {
    const fixed: Column<Row>[] = [
      { id: "at", header: "When", fixedOrder: { direction: "desc", text: "Newest first" }, cell: (row) => row.id },
    ];
    const markup = html(
      h(DataTable<Row>, { caption: "Log", columns: fixed, rowKey: (row: Row) => row.id, rows: [{ id: 1, url: "" }] }),
    );
    expect(markup).toContain('aria-sort="descending"');
    expect(markup.match(/Newest first/g)).toHaveLength(2);
  });
  it("keeps a truncated value whole in its title", () => {
    const long: Column<Row>[] = [
      { id: "url", header: "URL", wrap: "truncate", fullText: (row) => row.url, cell: (row) => row.url },
    ];
    const markup = html(
      h(DataTable<Row>, {
        caption: "Log",
        columns: long,
        rowKey: (row: Row) => row.id,
        rows: [{ id: 1, url: "https://a/very/long" }],
      }),
    );
    expect(markup).toContain('title="https://a/very/long"');
  });
});

describe("browser-dependent values render a stable server form", () => {
  it("LocalTime renders UTC in <time dateTime>", () => {
    const markup = html(h(LocalTime, { iso: "2025-01-31T12:00:00.000Z" }));
    expect(markup).toContain('dateTime="2025-01-31T12:00:00.000Z"');
    expect(markup).toContain("2025-01-31 12:00 UTC");
  });
  it("LocalTime says what is missing", () => {
    expect(html(h(LocalTime, { iso: null, missing: "Not generated yet" }))).toContain("Not generated yet");
  });
  it("Money renders the plain form", () => {
    expect(html(h(Money, { amount: 19, currency: "usd" }))).toContain("19.00 USD");
  });
});

describe("RowsTable", () => {
  it("heads its columns, and each row with its label, then the row's cells", () => {
    const markup = html(
      h(RowsTable<{ label: string; n: number }>, {
        caption: "Counts",
        captionClassName: "visually-hidden",
        columns: ["Day", "Count"],
        rows: [{ label: "Monday", n: 3 }],
        cells: (row) => [row.n],
      }),
    );
    expect(markup).toBe(
      '<table><caption class="visually-hidden">Counts</caption><thead><tr><th scope="col">Day</th>' +
        '<th scope="col">Count</th></tr></thead><tbody><tr><th scope="row">Monday</th><td>3</td></tr></tbody></table>',
    );
  });
});

describe("ResultChart", () => {
  it("has a table with every number", () => {
    const markup = html(
      h(ResultChart, { title: "Reports by result", rows: [{ label: "Shop", good: 3, decent: 2, bad: 1 }] }),
    );
    expect(markup).toContain("<table");
    expect(markup).toMatch(/<th scope="row">Shop<\/th><td>3<\/td><td>2<\/td><td>1<\/td><td>6<\/td>/);
    expect(markup).toContain('aria-hidden="true"');
  });
  it("scales bars to the longest row and leaves out empty segments", () => {
    const segments = barSegments({ label: "x", good: 1, decent: 0, bad: 1 }, 4);
    expect(segments.map((s) => s.result)).toEqual(["good", "bad"]);
    // 2 of the longest 4 reports: half the width (500 of 1000), split evenly, a 3-unit gap after each segment.
    expect(segments.map((s) => [s.x, s.width])).toEqual([
      [0, 247],
      [250, 247],
    ]);
  });
});

describe("ResultChart's scale", () => {
  it("labels the one scale every bar shares: 0, half and the longest bar's count", () => {
    const markup = html(
      h(ResultChart, {
        title: "Per project",
        rows: [
          { label: "A", good: 10, decent: 0, bad: 0 },
          { label: "B", good: 1, decent: 1, bad: 0 },
        ],
      }),
    );
    expect(markup).toMatch(/Reports<\/span><span[^>]*><span>0<\/span><span>5<\/span><span>10<\/span>/);
  });
});

describe("TrendChart", () => {
  const days = [
    { day: "2026-11-23", good: 2, decent: 0, bad: 1 },
    { day: "2026-11-24", good: 0, decent: 0, bad: 0 },
  ];
  it("rounds the axis up to 1, 2 or 5 times a power of ten", () => {
    expect([axisMax(0), axisMax(3), axisMax(7), axisMax(12), axisMax(250)]).toEqual([1, 5, 10, 20, 500]);
  });
  it("stacks a day's results bottom up, leaving out empty ones", () => {
    expect(dayStack(days[0]!, 5).map((s) => [s.result, s.y, s.height])).toEqual([
      ["good", 72, 48],
      ["bad", 48, 24],
    ]);
  });
  it("renders every number as a table for screen readers, and says the period", () => {
    const markup = html(h(TrendChart, { title: "All projects", days }));
    expect(markup).toMatch(/<th scope="row">2026-11-23<\/th><td>2<\/td><td>0<\/td><td>1<\/td><td>3<\/td>/);
    expect(markup).toContain("3 results recorded from 2026-11-23 to 2026-11-24");
    expect(markup).toContain('aria-pressed="false"');
  });
});

describe("media", () => {
  it("plays only http(s) sources", () => {
    expect(html(h(VideoPlayer, { src: "javascript:alert(1)", caption: "Preview" }))).not.toContain("<video");
    expect(html(h(VideoPlayer, { src: "https://cdn.example/v.mp4", caption: "Preview" }))).toContain("<video");
  });
  it("leaves unsafe screenshots out and numbers the rest", () => {
    const markup = html(
      h(ScreenshotGallery, {
        itemName: "Aurora",
        screenshots: ["https://a/1.png", "data:image/png;base64,x", "https://a/2.png"],
      }),
    );
    expect(markup).toContain('alt="Screenshot 2 of 2 of Aurora"');
    expect(markup).not.toContain("data:image");
  });
  it("makes initials", () => {
    expect(initials("Ada Lovelace")).toBe("AL");
    expect(initials("  grace  ")).toBe("G");
    expect(initials("")).toBe("?");
  });
});

describe("themeScript", () => {
  it("only ever sets light or dark", () => {
    expect(themeScript).toContain('t==="light"||t==="dark"');
    expect(themeScript).toContain("gatehouse-theme");
  });
});

describe("ResultMixBar", () => {
  it("names the mix in words, leaving out results with none", () => {
    expect(mixText({ good: 12, decent: 3, bad: 1 })).toBe("12 good, 3 decent, 1 bad");
    expect(mixText({ good: 0, decent: 2, bad: 0 })).toBe("2 decent");
    expect(mixText({ good: 0, decent: 0, bad: 0 })).toBe("no results");
  });
  it("shows the count and a picture named by that sentence", () => {
    const markup = html(h(ResultMixBar, { counts: { good: 1, decent: 0, bad: 0 } }));
    expect(markup).toContain("1 report<");
    expect(markup).toContain('role="img" aria-label="1 good"');
  });
});

describe("FiltersSheet", () => {
  it("names its button Filters with the count", () => {
    expect(filtersButtonLabel(0)).toBe("Filters (0)");
    expect(filtersButtonLabel(2)).toBe("Filters (2)");
  });
});
