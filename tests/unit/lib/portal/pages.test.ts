// The rest of the pages' pure logic: navigation by role and area, dashboard counts, the sign-in return path,
// report form checks (the same rules as the API), audit filters, and the words for an upstream failure.
import { describe, expect, it } from "vitest";

import { ReportCreateBodySchema, type Report } from "@/lib/contract/reports";
import { ROLES } from "@/lib/contract/values";
import { auditQueryString, parseAuditParams } from "@/lib/portal/audit-params";
import { countResults, DASHBOARD_MAX_PROJECT_ROWS, NO_PROJECT_LABEL } from "@/lib/portal/dashboard";
import { describeUpstreamFailure, loadFromUpstream } from "@/lib/portal/failures";
import { navigationFor } from "@/lib/portal/navigation";
import { checkReportPassword, checkReportUrl } from "@/lib/portal/report-form";
import { safeNextPath } from "@/lib/auth/safe-next";
import { UpstreamError, type UpstreamErrorKind } from "@/lib/upstream/errors";

describe("navigationFor", () => {
  const all = { reports: true, items: true };
  const labels = (role: (typeof ROLES)[number], areas = all) => navigationFor(role, areas).map((item) => item.label);

  it("shows each role only what it may use", () => {
    expect(labels("admin")).toEqual(["Dashboard", "Reports", "Projects", "Items", "Check a code", "Bulk check", "History", "Seller account", "Users", "Audit log"]);
    expect(labels("editor")).toEqual(["Dashboard", "Reports", "Projects", "Items", "Check a code", "Bulk check", "History", "Seller account"]);
    expect(labels("viewer")).toEqual(["Dashboard", "Reports", "Projects", "Items", "Seller account"]);
    expect(labels("support")).toEqual(["Dashboard", "Items", "Check a code", "Bulk check", "History", "Seller account"]);
  });

  it("hides an area that is not configured", () => {
    expect(labels("admin", { reports: false, items: true })).toEqual(["Dashboard", "Items", "Check a code", "Bulk check", "History", "Seller account", "Users", "Audit log"]);
    expect(labels("editor", { reports: true, items: false })).toEqual(["Dashboard", "Reports", "Projects"]);
  });
});

describe("countResults", () => {
  const report = (id: number, project: string | null, result: Report["result"]): Report => ({
    id,
    url: `https://example.com/${id}`,
    project,
    result,
    generated_at: null,
    privacy: 0,
  });

  it("counts all reports, then each project with the most reports first", () => {
    const rows = countResults([report(1, "a", "good"), report(2, "b", "bad"), report(3, "b", "decent"), report(4, null, "good")]);
    expect(rows).toEqual([
      { label: "All reports", good: 2, decent: 1, bad: 1 },
      { label: "b", good: 0, decent: 1, bad: 1 },
      { label: "a", good: 1, decent: 0, bad: 0 },
      { label: NO_PROJECT_LABEL, good: 1, decent: 0, bad: 0 },
    ]);
  });

  it("sums the smallest projects into one row", () => {
    const reports = Array.from({ length: DASHBOARD_MAX_PROJECT_ROWS + 3 }, (_, i) => report(i + 1, `p${String(i).padStart(2, "0")}`, "bad"));
    const rows = countResults(reports);
    expect(rows).toHaveLength(1 + DASHBOARD_MAX_PROJECT_ROWS + 1);
    expect(rows.at(-1)).toEqual({ label: "3 other projects", good: 0, decent: 0, bad: 3 });
  });
});

describe("safeNextPath", () => {
  it.each([
    ["/reports?page=2", "/reports?page=2"],
    ["/", "/"],
    [undefined, "/"],
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example/", "/"],
    ["javascript:alert(1)", "/"],
    ["/reports\nSet-Cookie: x", "/"],
    ["/login?next=/x", "/"],
    [["/items", "/reports"], "/items"],
    // Location carries ASCII only: anything else is percent-encoded as UTF-8, escapes already there are kept.
    ["/\u202e", "/%E2%80%AE"],
    ["/reports?search=caf\u00e9 cr\u00e8me", "/reports?search=caf%C3%A9%20cr%C3%A8me"],
    ["/projects/%F0%9F%8C%8D?x=1", "/projects/%F0%9F%8C%8D?x=1"],
    ["/reports?search=a%26b", "/reports?search=a%26b"],
    ["/\ud800", "/%EF%BF%BD"],
    // Dot segments resolve to another host's path: refused after parsing too.
    ["/.//evil.example", "/"],
    ["/a/..//evil.example", "/"],
    ["/login#x", "/"],
  ])("%j → %s", (input, expected) => {
    expect(safeNextPath(input as string | string[] | undefined)).toBe(expected);
  });
});

describe("report form checks agree with the API's schema", () => {
  it.each([
    "https://example.com/pricing",
    "http://example.com",
    "HTTPS://EXAMPLE.COM/x?y=1#z",
    "example.com/pricing",
    "ftp://example.com/",
    "https://",
    "https:// spaced .com",
    `https://example.com/${"a".repeat(2048)}`,
    "javascript:alert(1)",
  ])("%s", (url) => {
    const ours = checkReportUrl(url) === undefined;
    const theirs = ReportCreateBodySchema.safeParse({ url }).success;
    expect(ours).toBe(theirs);
  });

  it("a password is required only when the report has none yet", () => {
    expect(checkReportPassword("", true)).toMatch(/Enter a password/);
    expect(checkReportPassword("", false)).toBeUndefined();
    expect(checkReportPassword("x".repeat(256), false)).toMatch(/too long/);
    expect(checkReportPassword("secret", true)).toBeUndefined();
  });
});

describe("audit filters in the URL", () => {
  it("keep valid values, drop the rest, and drop an end before the start", () => {
    expect(parseAuditParams({ user: "a@b.c", action: "report.delete", from: "2026-01-02", to: "2026-01-05", per_page: "50", page: "2" })).toEqual({
      user: "a@b.c",
      action: "report.delete",
      from: "2026-01-02",
      to: "2026-01-05",
      per_page: 50,
      page: 2,
    });
    expect(parseAuditParams({ action: "report.explode", from: "yesterday", per_page: "20" })).toEqual({});
    expect(parseAuditParams({ from: "2026-02-01", to: "2026-01-01" })).toEqual({ from: "2026-02-01" });
    expect(auditQueryString({ action: "auth.login", page: 3 })).toBe("?action=auth.login&page=3");
  });
});

describe("describeUpstreamFailure", () => {
  const failure = (kind: UpstreamErrorKind, extra: Partial<ConstructorParameters<typeof UpstreamError>[0]> = {}) =>
    describeUpstreamFailure(new UpstreamError({ kind, area: "reports", operation: "reports.list", detail: "x", ...extra }), "The reports");

  it("says what failed and what to try, never the upstream's details", () => {
    expect(failure("timeout")).toEqual({
      title: "The reports could not be loaded",
      message: "The reports service did not answer in time. Try again in a moment.",
      retryable: true,
    });
    expect(failure("rate_limited", { retryAfter: "30" }).message).toBe("The reports service is limiting how often Gatehouse may ask. Try again in 30 seconds.");
    expect(failure("auth")).toMatchObject({ retryable: false, message: expect.stringContaining("REPORTS_API_KEY") });
    expect(failure("http_status", { status: 503 }).message).toBe("The reports service answered with an error (HTTP 503). Try again in a moment.");
    for (const kind of ["unreachable", "bad_response", "too_large", "not_found", "invalid"] as const) {
      expect(failure(kind).message).toMatch(/^The reports service /);
    }
  });

  it("loadFromUpstream turns an UpstreamError into a failure and lets a bug through", async () => {
    const failed = await loadFromUpstream("The items", () => Promise.reject(new UpstreamError({ kind: "unreachable", area: "items", operation: "items.all", detail: "x" })));
    expect(failed).toMatchObject({ ok: false, failure: { message: "The item service cannot be reached right now. Try again in a moment." } });
    expect(await loadFromUpstream("The items", async () => 3)).toEqual({ ok: true, value: 3 });
    await expect(loadFromUpstream("The items", () => Promise.reject(new TypeError("bug")))).rejects.toThrow("bug");
  });
});
