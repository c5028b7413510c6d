import { describe, expect, it } from "vitest";

import {
  formatDateTime,
  formatDateTimeShort,
  formatInZone,
  formatMoney,
  formatMoneyPlain,
  formatRelative,
  formatUtc,
  supportState,
} from "@/components/format";
import { safeHttpUrl } from "@/components/url";

const NOW = Date.parse("2025-01-31T12:00:00.000Z");
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe("formatUtc (the server's stable rendering)", () => {
  it("renders minute precision in UTC", () => {
    expect(formatUtc("2025-01-31T12:34:56.789Z")).toBe("2025-01-31 12:34 UTC");
    expect(formatUtc("2025-01-31T13:34:56+01:00")).toBe("2025-01-31 12:34 UTC");
  });
  it("returns what it cannot parse unchanged, rather than hiding it", () => {
    expect(formatUtc("yesterday-ish")).toBe("yesterday-ish");
  });
});

describe("formatRelative", () => {
  it.each([
    [3 * 86_400, "3 days ago"],
    [86_400, "yesterday"],
    [47 * 3600, "yesterday"],
    [2 * 3600, "2 hours ago"],
    [90, "1 minute ago"],
    [20, "now"],
    [-2 * 3600, "in 2 hours"],
    [40 * 86_400, "last month"],
    [400 * 86_400, "last year"],
  ])("%i seconds ago reads %s", (seconds, text) => {
    expect(formatRelative(ago(seconds), NOW, "en")).toBe(text);
  });
  it("follows the locale", () => {
    expect(formatRelative(ago(3 * 86_400), NOW, "de")).toBe("vor 3 Tagen");
  });
});

describe("formatDateTime", () => {
  it("uses the given locale and time zone", () => {
    const text = formatDateTime("2025-01-31T12:00:00.000Z", "en-GB", "Europe/Paris");
    expect(text).toContain("31 January 2025");
    expect(text).toContain("13:00:00");
  });
});

describe("an absolute time says its zone", () => {
  it("short: with the zone's short name", () => {
    expect(formatDateTimeShort("2025-01-31T12:00:00.000Z", "en-GB", "America/Los_Angeles")).toBe(
      "31 Jan 2025, 04:00 GMT-8",
    );
    expect(formatDateTimeShort("2025-01-31T12:00:00.000Z", "en-US", "America/Los_Angeles")).toBe(
      "Jan 31, 2025, 04:00 AM PST",
    );
  });

  it("short, given now: without the year when it is this year in that zone", () => {
    const now = Date.parse("2025-06-01T00:00:00.000Z");
    expect(formatDateTimeShort("2025-01-31T12:00:00.000Z", "en-GB", "Asia/Tokyo", now)).toBe("31 Jan, 21:00 GMT+9");
    expect(formatDateTimeShort("2024-12-31T20:00:00.000Z", "en-GB", "UTC", now)).toBe("31 Dec 2024, 20:00 UTC");
    expect(formatDateTimeShort("2024-12-31T20:00:00.000Z", "en-GB", "Asia/Tokyo", now)).toBe("1 Jan, 05:00 GMT+9");
  });

  it("in a named zone: with its IANA name", () => {
    expect(formatInZone("2026-12-01T08:00:00.000Z", "Europe/Berlin", "en-GB")).toBe(
      "Tue, 1 Dec 2026, 09:00 Europe/Berlin",
    );
  });
});

describe("formatMoney", () => {
  it("formats in the locale's way", () => {
    expect(formatMoney(1234.5, "USD", "en-US")).toBe("$1,234.50");
    expect(formatMoney(1234.5, "eur", "de-DE")).toBe("1.234,50\u00a0€");
  });
  it("does not throw on a currency code Intl refuses", () => {
    expect(formatMoney(12, "dollars", "en-US")).toBe("12.00 DOLLARS");
    expect(formatMoney(12, "", "en-US")).toBe("12.00");
  });
  it("has a locale-free server form", () => {
    expect(formatMoneyPlain(1234.5, "usd")).toBe("1234.50 USD");
  });
});

describe("supportState", () => {
  it("is active before supported_until, expired after, none without it", () => {
    expect(supportState("2025-02-01T00:00:00Z", NOW)).toEqual({ kind: "active", until: "2025-02-01T00:00:00Z" });
    expect(supportState("2025-01-01T00:00:00Z", NOW)).toEqual({ kind: "expired", until: "2025-01-01T00:00:00Z" });
    expect(supportState(undefined, NOW)).toEqual({ kind: "none" });
    expect(supportState("not a date", NOW)).toEqual({ kind: "none" });
  });
});

describe("safeHttpUrl (upstream URLs are untrusted)", () => {
  it.each([
    ["https://example.com/a?b=1#c", "https://example.com/a?b=1#c"],
    ["  http://example.com ", "http://example.com/"],
    ["HTTPS://EXAMPLE.COM/x", "https://example.com/x"],
  ])("keeps %s", (input, output) => {
    expect(safeHttpUrl(input)).toBe(output);
  });
  it.each([
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "ftp://example.com/file",
    "/relative/path",
    "//example.com/protocol-relative",
    "https://user:pass@example.com/",
    "",
    "not a url",
  ])("refuses %j", (input) => {
    expect(safeHttpUrl(input)).toBeNull();
  });
  it("refuses missing values", () => {
    expect(safeHttpUrl(null)).toBeNull();
    expect(safeHttpUrl(undefined)).toBeNull();
  });
});
