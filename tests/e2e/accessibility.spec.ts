// axe finds no serious or critical violation on any page, in light and in dark mode; a screenshot of each.
import type { Page } from "@playwright/test";

import { as, checkBothThemes, expect, seriousViolations, shot, test } from "@/tests/support/e2e/fixtures";

const PAGES: { path: string; heading: string | RegExp; prepare?: (page: Page) => Promise<void> }[] = [
  { path: "/", heading: "Dashboard" },
  { path: "/reports", heading: "Reports" },
  { path: "/reports?search=no-such-page", heading: "Reports" },
  { path: "/reports/new", heading: "New report" },
  { path: "/reports/1", heading: "Report #1" },
  { path: "/projects", heading: "Projects" },
  { path: "/projects/acme-tools.io/overview", heading: "acme-tools.io" },
  { path: "/alerts?status=all", heading: "Alerts" },
  { path: "/items", heading: "Items" },
  { path: "/items/100005", heading: "Acoustic Happy Ukulele" },
  { path: "/items/100002", heading: "Clean Corporate Slideshow" },
  { path: "/account", heading: "Seller account" },
  {
    path: "/purchases",
    heading: "Purchase check",
    prepare: async (page) => {
      await page.getByLabel(/Purchase code/).fill("11111111-1111-4111-8111-111111111111");
      await page.getByRole("button", { name: "Check code" }).click();
      await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
    },
  },
  { path: "/tokens", heading: "API tokens" },
  { path: "/admin/users", heading: "Users" },
  { path: "/admin/audit", heading: "Audit log" },
  { path: "/admin/webhooks", heading: "Webhooks" },
  { path: "/admin/upstream", heading: "Upstream connections" },
  { path: "/reports/999999", heading: "Report not found" },
  { path: "/no-such-page", heading: "Page not found" },
  {
    path: "/reports/2",
    heading: "Report #2",
    prepare: async (page) => {
      await page.getByRole("button", { name: "Delete report" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
];


test.describe("every page, light and dark", () => {
  test.use({ storageState: as("admin") });

  for (const target of PAGES) {
    test(`${target.path}${target.prepare ? " (in use)" : ""}`, async ({ page }, testInfo) => {
      await page.goto(target.path);
      await expect(page.getByRole("heading", { level: 1, name: target.heading })).toBeVisible();
      await target.prepare?.(page);
      await checkBothThemes(page, testInfo, target.path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "dashboard");
    });
  }
});

test("the sign-in page and the 403 page, light and dark", async ({ browser }, testInfo) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await checkBothThemes(page, testInfo, "login");
  await context.close();

  const support = await browser.newContext({ storageState: as("support") });
  const forbidden = await support.newPage();
  await forbidden.goto("/reports");
  await expect(forbidden.getByRole("heading", { level: 1, name: "You may not open this page" })).toBeVisible();
  await checkBothThemes(forbidden, testInfo, "forbidden");
  await support.close();
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
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, testInfo, "phone-reports");
  });
});
