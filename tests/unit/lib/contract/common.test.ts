// The rules every list of the contract shares: a time filter's bounds (a bare date is the whole UTC day), from
// not after to, and a page's meta.
import { describe, expect, it } from "vitest";

import { fromNotAfterTo, pageMeta, timeBound } from "@/lib/contract/common";

describe("timeBound", () => {
  it("reads a bare date as the whole day in UTC: its first millisecond as a start, its last as an end", () => {
    expect(timeBound("2025-03-01", "start").toISOString()).toBe("2025-03-01T00:00:00.000Z");
    expect(timeBound("2025-03-01", "end").toISOString()).toBe("2025-03-01T23:59:59.999Z");
  });

  it("reads a date-time as that moment, whatever its offset and side", () => {
    expect(timeBound("2025-03-01T12:00:00+02:00", "start").toISOString()).toBe("2025-03-01T10:00:00.000Z");
    expect(timeBound("2025-03-01T12:00:00Z", "end").toISOString()).toBe("2025-03-01T12:00:00.000Z");
  });
});

describe("fromNotAfterTo", () => {
  it("lets a range of one day, or open at either end, through; refuses one that ends before it starts", () => {
    expect(fromNotAfterTo({ from: "2025-03-01", to: "2025-03-01" })).toBe(true);
    expect(fromNotAfterTo({ from: "2025-03-01T23:00:00Z", to: "2025-03-01" })).toBe(true);
    expect(fromNotAfterTo({ from: "2025-03-02" })).toBe(true);
    expect(fromNotAfterTo({ to: "2025-03-02" })).toBe(true);
    expect(fromNotAfterTo({ from: "2025-03-02", to: "2025-03-01" })).toBe(false);
  });
});

describe("pageMeta", () => {
  it("counts the pages, an empty list still having one", () => {
    expect(pageMeta(2, 25, 51)).toEqual({ page: 2, per_page: 25, total: 51, last_page: 3 });
    expect(pageMeta(1, 10, 0)).toEqual({ page: 1, per_page: 10, total: 0, last_page: 1 });
    expect(pageMeta(4, 10, 40)).toEqual({ page: 4, per_page: 10, total: 40, last_page: 4 });
  });
});
