// What the navigation shows: only what the role may use and the areas that are configured.
import { describe, expect, it } from "vitest";

import { ROLES } from "@/lib/contract/values";
import { navigationFor, PORTAL_SECTIONS } from "@/lib/portal/navigation";

describe("navigationFor", () => {
  const all = { reports: true, items: true };
  const labels = (role: (typeof ROLES)[number], areas = all) =>
    navigationFor({ role }, areas).map((item) => item.label);

  it("shows each role only what it may use", () => {
    expect(labels("admin")).toEqual([
      "Dashboard",
      "Reports",
      "Projects",
      "Items",
      "Check a code",
      "Bulk check",
      "History",
      "Support ending",
      "Seller account",
      "Notifications",
      "Security",
      "API tokens",
      "Users",
      "Audit log",
      "Webhooks",
      "Notification channels",
      "Upstream connections",
      "Helpdesk",
      "Purchase codes",
      "Licences",
    ]);
    expect(labels("editor")).toEqual([
      "Dashboard",
      "Reports",
      "Projects",
      "Items",
      "Check a code",
      "Bulk check",
      "History",
      "Support ending",
      "Seller account",
      "Notifications",
      "Security",
      "API tokens",
    ]);
    expect(labels("viewer")).toEqual([
      "Dashboard",
      "Reports",
      "Projects",
      "Items",
      "Seller account",
      "Notifications",
      "Security",
      "API tokens",
    ]);
    expect(labels("support")).toEqual([
      "Dashboard",
      "Items",
      "Check a code",
      "Bulk check",
      "History",
      "Support ending",
      "Seller account",
      "Notifications",
      "Security",
      "API tokens",
    ]);
  });

  it("hides an area that is not configured", () => {
    expect(labels("admin", { reports: false, items: true })).toEqual([
      "Dashboard",
      "Items",
      "Check a code",
      "Bulk check",
      "History",
      "Support ending",
      "Seller account",
      "Notifications",
      "Security",
      "API tokens",
      "Users",
      "Audit log",
      "Webhooks",
      "Notification channels",
      "Upstream connections",
      "Helpdesk",
      "Purchase codes",
      "Licences",
    ]);
    expect(labels("editor", { reports: true, items: false })).toEqual([
      "Dashboard",
      "Reports",
      "Projects",
      "Notifications",
      "Security",
      "API tokens",
    ]);
  });
});

describe("PORTAL_SECTIONS' shortcuts", () => {
  it("gives each section its own lowercase letter, so `g` then a letter goes to one place", () => {
    const letters = PORTAL_SECTIONS.map((section) => section.shortcut);
    expect(letters.every((letter) => /^[a-z]$/.test(letter))).toBe(true);
    expect(new Set(letters).size).toBe(letters.length);
  });
});
