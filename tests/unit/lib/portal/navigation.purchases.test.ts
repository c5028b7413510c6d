// The navigation's Purchases group: the purchase pages listed together, for the roles that check codes.
import { describe, expect, it } from "vitest";

import { navRows } from "@/components/shell/app-shell";
import { navigationFor } from "@/lib/portal/navigation";

describe("the navigation's Purchases group", () => {
  const all = { reports: true, items: true };

  it("gathers the purchase pages under one heading, for the roles that may check codes", () => {
    const rows = navRows(navigationFor({ role: "support" }, all));
    expect(
      rows.map((row) =>
        row.kind === "item" ? row.item.label : `${row.label}: ${row.items.map((item) => item.label).join(", ")}`,
      ),
    ).toEqual([
      "Dashboard",
      "Items",
      "Purchases: Check a code, Bulk check, History, Support ending",
      "Seller account",
      "Notifications",
      "Security",
      "API tokens",
    ]);
    expect(navigationFor({ role: "viewer" }, all).some((item) => item.group === "Purchases")).toBe(false);
    expect(
      navigationFor({ role: "admin" }, { reports: true, items: false }).some((item) => item.group === "Purchases"),
    ).toBe(false);
  });

  it("a group split by another item starts again", () => {
    const rows = navRows([
      { href: "/a", label: "A", group: "G" },
      { href: "/b", label: "B" },
      { href: "/c", label: "C", group: "G" },
    ]);
    expect(rows.map((row) => row.kind)).toEqual(["group", "item", "group"]);
  });
});
