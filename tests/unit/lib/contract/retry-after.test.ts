// Retry-After, one reading for the upstream layer, the bulk checks, the browser and the sign-in form.
import { describe, expect, it } from "vitest";

import { retryAfterMs, retryAfterSeconds } from "@/lib/contract/retry-after";

const NOW = Date.parse("2026-03-01T12:00:00Z");

describe("Retry-After", () => {
  it("reads whole seconds", () => {
    expect(retryAfterMs("7", NOW)).toBe(7000);
    expect(retryAfterMs(" 0 ", NOW)).toBe(0);
    expect(retryAfterSeconds("120", NOW)).toBe(120);
  });

  it("reads an HTTP date as the time until it, never less than nothing", () => {
    expect(retryAfterMs("Sun, 01 Mar 2026 12:00:30 GMT", NOW)).toBe(30_000);
    expect(retryAfterSeconds("Sun, 01 Mar 2026 12:00:01 GMT", NOW - 500)).toBe(2);
    expect(retryAfterMs("Sat, 28 Feb 2026 12:00:00 GMT", NOW)).toBe(0);
  });

  it("refuses what HTTP does not define: null, so each caller applies its own fallback", () => {
    for (const value of [
      undefined,
      null,
      "",
      "soon",
      "-1",
      "1.5",
      "12345678",
      "2026-03-01T12:00:30Z",
      "1 Mar 2026 12:00:30 GMT",
    ]) {
      expect(retryAfterMs(value, NOW), String(value)).toBeNull();
      expect(retryAfterSeconds(value, NOW), String(value)).toBeNull();
    }
  });
});
