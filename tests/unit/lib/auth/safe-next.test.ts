// Where to go after signing in: only a path of this site, written as ASCII.
import { describe, expect, it } from "vitest";

import { safeNextPath } from "@/lib/auth/safe-next";

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
