// axe finds no serious or critical violation, in light and in dark mode, with a screenshot of each, on the pages
// and states layout.spec.ts does not visit: an empty search, a second item, a checked code, a missing report, an
// open dialog. layout.spec.ts runs axe on every page of PORTAL_PAGES, at two widths and in both themes.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { as, checkBothThemes, expect, seriousViolations, shot, test } from "@/tests/support/e2e/fixtures";
import { BULK_CODES } from "@/tests/support/e2e/pages";

const PAGES: { path: string; heading: string | RegExp; prepare?: (page: Page) => Promise<void> }[] = [
  { path: "/reports?search=no-such-page", heading: "Reports" },
  { path: "/items/100002", heading: "Clean Corporate Slideshow" },
  {
    path: "/purchases",
    heading: "Purchase check",
    prepare: async (page) => {
      await page.getByLabel(/Purchase code/).fill("11111111-1111-4111-8111-111111111111");
      await page.getByRole("button", { name: "Check code" }).click();
      await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
    },
  },
  { path: "/reports/999999", heading: "Report not found" },
  {
    path: "/reports/2",
    heading: "Report #2",
    prepare: async (page) => {
      await page.getByRole("button", { name: "Delete report" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
];

test.describe("pages in a state layout.spec does not visit, light and dark", () => {
  test.use({ storageState: as("admin") });

  for (const target of PAGES) {
    test(`${target.path}${target.prepare ? " (in use)" : ""}`, async ({ page }, testInfo) => {
      await page.goto(target.path);
      await expect(page.getByRole("heading", { level: 1, name: target.heading })).toBeVisible();
      await target.prepare?.(page);
      await checkBothThemes(
        page,
        testInfo,
        target.path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "dashboard",
      );
    });
  }
});

// Two landmarks with one name cannot be told apart in a screen reader's list of them (axe: landmark-unique, a
// moderate finding the walk above does not count): a section named like the table's region inside it was one.
test.describe("each landmark has a name of its own", () => {
  test.use({ storageState: as("admin") });

  for (const path of ["/purchases/bulk", "/purchases/history"]) {
    test(path, async ({ page }) => {
      // A bulk check made first, so that both pages show their tables.
      const created = await page.request.post("/api/purchases/bulk", {
        headers: { "X-CSRF": "1" },
        data: { codes: BULK_CODES.slice(0, 2) },
      });
      expect(created.status(), await created.text()).toBe(202);
      await page.goto(path);
      await expect(page.getByRole("table").first()).toBeVisible();
      const { violations } = await new AxeBuilder({ page }).withRules(["landmark-unique"]).analyze();
      expect(violations.flatMap((violation) => violation.nodes.map((node) => node.target.join(" ")))).toEqual([]);
    });
  }
});

test.describe("on a phone", () => {
  test.use({ storageState: as("editor"), viewport: { width: 390, height: 844 } });

  test("the menu opens and closes, the reports list works, nothing scrolls sideways", async ({ page }, testInfo) => {
    await page.goto("/reports");
    const menu = page.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await shot(page, testInfo, "phone-menu");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Projects" }).click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await page.goto("/reports");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, testInfo, "phone-reports");
  });
});
