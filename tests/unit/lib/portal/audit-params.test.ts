// The audit log view's URL: filters read leniently and written in a stable order.
import { describe, expect, it } from "vitest";

import { auditApiQueryString, auditExportHref, auditQueryString, parseAuditParams } from "@/lib/portal/audit-params";

describe("audit filters in the URL", () => {
  it("keep valid values, drop the rest, and drop an end before the start", () => {
    expect(
      parseAuditParams({
        user: "a@b.c",
        action: "report.delete",
        from: "2026-01-02",
        to: "2026-01-05",
        per_page: "50",
        page: "2",
      }),
    ).toEqual({
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

  it("asks the API for days in the person's time zone, and keeps the zone out of the page's own URL", () => {
    const query = { from: "2026-01-02", page: 2 };
    expect(auditApiQueryString(query, "Europe/Berlin")).toBe("?from=2026-01-02&page=2&time_zone=Europe%2FBerlin");
    expect(auditQueryString(query)).toBe("?from=2026-01-02&page=2");
    // Without a day, the zone changes nothing: the key stays the page's.
    expect(auditApiQueryString({ page: 2 }, "Europe/Berlin")).toBe("?page=2");
  });

  it("exports what the view shows: its filters and the person's zone for days, never its paging", () => {
    expect(auditExportHref({ user: "a@b.c", from: "2026-01-02", page: 3, per_page: 50 }, "Europe/Berlin", "csv")).toBe(
      "/api/admin/audit/export?format=csv&user=a%40b.c&from=2026-01-02&time_zone=Europe%2FBerlin",
    );
    expect(auditExportHref({ action: "auth.login" }, "Europe/Berlin", "ndjson")).toBe(
      "/api/admin/audit/export?format=ndjson&action=auth.login",
    );
  });
});
