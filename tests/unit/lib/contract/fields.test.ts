// The lists' query fields: one rule for the API's schemas and the portal's URLs. What the API refuses, a list's
// URL drops; what it accepts, the URL keeps, with the same value.
import { describe, expect, it } from "vitest";

import { PROJECT_LIST_FIELDS, ProjectListQuerySchema } from "@/lib/contract/projects";
import { REPORT_LIST_FIELDS, ReportListQuerySchema } from "@/lib/contract/reports";
import { parseProjectListParams, parseReportListParams } from "@/lib/portal/list-params";

const VALUES = ["", "1", "0", "25", "7", "999999", "1000000", "asc", "up", "url", "id", "good", "café", "a\u0001b"];

describe("list query fields", () => {
  it("are the API schemas' own fields", () => {
    expect(ReportListQuerySchema.shape).toEqual(REPORT_LIST_FIELDS);
    expect(ProjectListQuerySchema.shape).toEqual(PROJECT_LIST_FIELDS);
  });

  it.each([
    ["reports", ReportListQuerySchema, parseReportListParams] as const,
    ["projects", ProjectListQuerySchema, parseProjectListParams] as const,
  ])("read a %s URL as the API reads its query, value by value", (_list, schema, parseUrl) => {
    for (const name of Object.keys(schema.shape).filter((field) => field !== "search_by")) {
      for (const value of [...VALUES, "x".repeat(255), "x".repeat(256)]) {
        const api = value === "" ? { success: true, data: {} } : schema.safeParse({ [name]: value });
        const url = parseUrl({ [name]: value });
        expect(url, `${name}=${JSON.stringify(value)}`).toEqual(api.success ? api.data : {});
      }
    }
  });

  it("refuse with the sentence the API sends", () => {
    const result = ReportListQuerySchema.safeParse({ sort: "up", page: "0", per_page: "7" });
    expect(result.success).toBe(false);
    expect(Object.fromEntries(result.error!.issues.map((issue) => [issue.path[0], issue.message]))).toEqual({
      sort: "must be one of: desc, asc",
      page: "must be a whole number from 1 to 999999",
      per_page: "must be one of: 10, 25, 50, 100",
    });
  });
});
