// List URLs: read leniently, written in a stable order, and always acceptable to the API's own schemas.
import { describe, expect, it } from "vitest";

import { AlertListQuerySchema } from "@/lib/contract/alerts";
import { ProjectListQuerySchema } from "@/lib/contract/projects";
import { ReportListQuerySchema } from "@/lib/contract/reports";
import {
  alertListQueryString,
  listFilters,
  parseAlertListParams,
  parseProjectListParams,
  parseReportListParams,
  projectListQueryString,
  readOneOf,
  reportListQueryString,
  reportViewRequest,
  withChanges,
} from "@/lib/portal/list-params";

describe("reports list URL", () => {
  it("keeps valid values and drops the others", () => {
    expect(
      parseReportListParams({
        search: " coffee ",
        project: "my shop",
        result: "bad",
        sort_by: "url",
        sort: "asc",
        per_page: "25",
        page: "2",
        junk: "x",
      }),
    ).toEqual({
      search: "coffee",
      project: "my shop",
      result: "bad",
      sort_by: "url",
      sort: "asc",
      per_page: 25,
      page: 2,
    });
    expect(
      parseReportListParams({
        result: "great",
        sort_by: "colour",
        sort: "up",
        per_page: "7",
        page: "-1",
        search: "a\u0001b",
      }),
    ).toEqual({});
    expect(parseReportListParams({ search: "x".repeat(256) })).toEqual({});
    expect(parseReportListParams(new URLSearchParams("result=good&result=bad&search="))).toEqual({ result: "good" });
  });

  it("writes a stable query string the API accepts as it is", () => {
    const query = parseReportListParams({
      page: "3",
      per_page: "50",
      sort: "desc",
      sort_by: "generated_at",
      result: "good",
      project: "café-münchen.de",
      search: "a&b c",
    });
    const text = reportListQueryString(query);
    expect(text).toBe(
      "?search=a%26b+c&project=caf%C3%A9-m%C3%BCnchen.de&result=good&sort_by=generated_at&sort=desc&per_page=50&page=3",
    );
    const asTheApiReadsIt = Object.fromEntries(new URLSearchParams(text.slice(1)));
    expect(ReportListQuerySchema.parse(asTheApiReadsIt)).toEqual(query);
    expect(reportListQueryString({})).toBe("");
  });
});

describe("projects list URL", () => {
  it("reads, writes and agrees with the API", () => {
    const query = parseProjectListParams({
      search: "shop",
      sort_by: "project",
      sort: "asc",
      per_page: "100",
      page: "1",
      result: "good",
    });
    expect(query).toEqual({ search: "shop", sort_by: "project", sort: "asc", per_page: 100, page: 1 });
    const text = projectListQueryString(query);
    expect(ProjectListQuerySchema.parse(Object.fromEntries(new URLSearchParams(text.slice(1))))).toEqual(query);
    expect(parseProjectListParams({ sort_by: "url" })).toEqual({});
  });
});

describe("alerts list URL", () => {
  it("reads, writes and agrees with the API", () => {
    const query = parseAlertListParams({ to: "bad", project: "my shop", status: "all", page: "2", sort: "asc" });
    expect(query).toEqual({ status: "all", project: "my shop", to: "bad", page: 2 });
    const text = alertListQueryString(query);
    expect(text).toBe("?status=all&project=my+shop&to=bad&page=2");
    expect(AlertListQuerySchema.parse(Object.fromEntries(new URLSearchParams(text.slice(1))))).toEqual(query);
    expect(parseAlertListParams({ status: "new", to: "good!" })).toEqual({});
  });
});

describe("readOneOf", () => {
  it("keeps a parameter that is one of the values, trimmed, from a record or URLSearchParams", () => {
    expect(readOneOf({ sort: [" asc ", "desc"] }, "sort", ["asc", "desc"])).toBe("asc");
    expect(readOneOf(new URLSearchParams("sort=desc"), "sort", ["asc", "desc"])).toBe("desc");
  });

  it("drops a missing, empty or unknown value", () => {
    expect(readOneOf({}, "sort", ["asc"])).toBeUndefined();
    expect(readOneOf({ sort: " " }, "sort", ["asc"])).toBeUndefined();
    expect(readOneOf({ sort: "up" }, "sort", ["asc"])).toBeUndefined();
  });
});

describe("withChanges", () => {
  it("goes back to page 1 when anything but the page changes, and removes emptied values", () => {
    const current: { search?: string; result?: "good" | "decent" | "bad"; page?: number } = {
      search: "coffee",
      result: "bad",
      page: 4,
    };
    expect(withChanges(current, { result: "good" })).toEqual({ search: "coffee", result: "good" });
    expect(withChanges(current, { search: undefined })).toEqual({ result: "bad" });
    expect(withChanges(current, { page: 5 })).toEqual({ search: "coffee", result: "bad", page: 5 });
    expect(withChanges(current, { page: 1 })).toEqual({ search: "coffee", result: "bad" });
  });
});

describe("reportViewRequest", () => {
  it("asks for the newest generated first when the URL names no sort", () => {
    expect(reportListQueryString(reportViewRequest({}))).toBe("?sort_by=generated_at&sort=desc");
  });
  it("keeps the sort the URL names", () => {
    expect(reportViewRequest({ sort_by: "url", sort: "asc", result: "bad" })).toEqual({
      sort_by: "url",
      sort: "asc",
      result: "bad",
    });
  });
});

describe("listFilters", () => {
  type Query = {
    search?: string;
    project?: string;
    result?: string;
    item_id?: number;
    per_page?: number;
    page?: number;
  };
  const filters = listFilters<Query>(["project", "result"], "search");

  it("counts the named filters that are set, and nothing else", () => {
    expect(filters.count({ search: "shop", project: "a", result: undefined, per_page: 25 })).toBe(1);
    expect(filters.count({ project: "a", result: "bad" })).toBe(2);
    expect(filters.count({})).toBe(0);
    expect(filters.count({ project: "" })).toBe(0);
  });
  it("counts a number filter, zero included", () => {
    expect(listFilters<Query>(["item_id"]).count({ item_id: 0 })).toBe(1);
  });
  it("calls a view filtered by search or a filter, not by its sort or page size", () => {
    expect(filters.filtered({ search: "shop" })).toBe(true);
    expect(filters.filtered({ result: "bad" })).toBe(true);
    expect(filters.filtered({ per_page: 50, page: 2 })).toBe(false);
    expect(listFilters<Query>(["project"]).filtered({ search: "shop" })).toBe(false);
  });
  it("clears the filters and the page, keeping search and page size", () => {
    expect(filters.cleared({ search: "shop", project: "a", result: "bad", per_page: 50, page: 3 })).toEqual({
      search: "shop",
      per_page: 50,
    });
  });
});
