// The report form's checks in the browser: the same rules as the API's schema.
import { describe, expect, it } from "vitest";

import { ReportCreateBodySchema } from "@/lib/contract/reports";
import { checkReportPassword, checkReportUrl } from "@/lib/portal/report-form";

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
    expect(checkReportPassword("x", true)).toMatch(/too short: at least 8 characters/);
    expect(checkReportPassword("1234567", false)).toMatch(/too short/);
    expect(checkReportPassword("12345678", true)).toBeUndefined();
    expect(checkReportPassword("open sesame", true)).toBeUndefined();
  });
});
