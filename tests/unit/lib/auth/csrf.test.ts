// The CSRF rule without a server: X-CSRF, or the page's own Origin for an HTML form (tests/http/server/access.test.ts over HTTP).
import { describe, expect, it } from "vitest";

import { csrfRefusal } from "@/lib/auth/csrf";
import { type EdgeSettings } from "@/lib/config/edge";

const direct: EdgeSettings = { trustProxyHops: 0, publicOrigin: null, allowedHosts: null };

const headers = (values: Record<string, string>) => new Headers(values);

describe("the CSRF rule", () => {
  const own = { host: "portal.test:3000" };
  it.each([
    ["no X-CSRF header", {}, /X-CSRF: 1/],
    ["X-CSRF with another value", { "x-csrf": "yes" }, /X-CSRF: 1/],
    ["a foreign Origin", { "x-csrf": "1", origin: "https://evil.example" }, /evil\.example/],
    ["Origin: null", { "x-csrf": "1", origin: "null" }, /Origin: null/],
    ["the same host on another scheme", { "x-csrf": "1", origin: "https://portal.test:3000" }, /not from this portal/],
    ["Sec-Fetch-Site: cross-site", { "x-csrf": "1", "sec-fetch-site": "cross-site" }, /another site/],
    ["Sec-Fetch-Site: same-site", { "x-csrf": "1", "sec-fetch-site": "same-site" }, /another site/],
  ])("refuses %s", (_name, extra, message) => {
    expect(csrfRefusal(headers({ ...own, ...extra }), direct)).toMatch(message);
  });

  it.each([
    ["X-CSRF and no Origin (a script)", { "x-csrf": "1" }],
    [
      "X-CSRF and our own Origin",
      { "x-csrf": "1", origin: "http://portal.test:3000", "sec-fetch-site": "same-origin" },
    ],
  ])("accepts %s", (_name, extra) => {
    expect(csrfRefusal(headers({ ...own, ...extra }), direct)).toBeNull();
  });
});
