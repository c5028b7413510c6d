import { describe, expect, it } from "vitest";

import { absoluteLink, isOpenable } from "@/lib/notifications/links";

describe("absoluteLink", () => {
  it("makes a path absolute with PUBLIC_ORIGIN, with or without its trailing slash", () => {
    expect(absoluteLink("/reports/12", "https://portal.example.com")).toBe("https://portal.example.com/reports/12");
    expect(absoluteLink("/reports/12?x=1", "https://portal.example.com/")).toBe(
      "https://portal.example.com/reports/12?x=1",
    );
  });

  it("leaves the path as it is without PUBLIC_ORIGIN, which cannot be opened from a chat", () => {
    expect(absoluteLink("/reports/12", null)).toBe("/reports/12");
    expect(isOpenable("/reports/12")).toBe(false);
    expect(isOpenable("https://portal.example.com/reports/12")).toBe(true);
  });
});
