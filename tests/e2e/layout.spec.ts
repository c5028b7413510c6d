// Every page at work on a phone (390 × 844) and at a desk (1440 × 900), in light and in dark (issue 23): one
// visit per page, width and theme, each checking that the page does not scroll sideways, that every table's
// primary cells (the column naming the row, the result/status) are on screen, that axe finds nothing serious,
// and that the page's layout shift, measured in the browser from before its first script, stays ≤ 0.05.
// A failing test's name says the page, the width and the theme.
import { readFileSync } from "node:fs";
import path from "node:path";

import { request, type Page } from "@playwright/test";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import type { Role } from "@/lib/contract/values";
import { as, expect, seriousViolations, test } from "@/tests/support/e2e/fixtures";
import { horizontalOverflow, layoutShift, primaryCells, untilSettled, watchLayoutShifts } from "@/tests/support/e2e/layout";
import { PORTAL_URL } from "@/tests/support/e2e/settings";
import { THEME_STORAGE_KEY } from "@/components/theme-script";

/** The most layout shift a page may show while it loads (Lighthouse's "good" is 0.1; the issue asks 0.05). */
const MAX_LAYOUT_SHIFT = 0.05;

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;
const THEMES = ["light", "dark"] as const;

/**
 * What marks a table's primary cell. DataTable renders a `priority: "primary"` column's cells with data-primary
 * (issue 23, part A). Until that part is merged into this branch the table marks none, and the first cell of
 * each row stands in, so that the rule is already checked; once DataTable knows data-primary, only it counts.
 */
const PRIMARY_CELL = readFileSync(path.join(process.cwd(), "components", "ui", "data-table.tsx"), "utf8").includes("data-primary")
  ? "[data-primary]"
  : "tr > :first-child";

interface Target {
  /** How the test names the page. */
  name: string;
  path: string | (() => string);
  heading: string | RegExp;
  /** Who opens it (default admin); null: nobody is signed in. */
  role?: Role | null;
  /** A list page: it shows at least one table, and each has a primary column. */
  list?: boolean;
}

let bulkJob = "";

const PAGES: Target[] = [
  { name: "sign-in", path: "/login", heading: "Sign in to Gatehouse", role: null },
  { name: "dashboard", path: "/", heading: "Dashboard" },
  { name: "dashboard (support)", path: "/", heading: "Dashboard", role: "support" },
  { name: "reports", path: "/reports", heading: "Reports", list: true },
  { name: "a report", path: "/reports/1", heading: "Report #1" },
  { name: "new report", path: "/reports/new", heading: "New report" },
  { name: "projects", path: "/projects", heading: "Projects", list: true },
  { name: "a project's overview", path: "/projects/acme-tools.io/overview", heading: "acme-tools.io" },
  { name: "items", path: "/items", heading: "Items", list: true },
  { name: "an item", path: "/items/100005", heading: "Acoustic Happy Ukulele" },
  { name: "purchase check", path: "/purchases", heading: "Purchase check" },
  { name: "bulk check", path: "/purchases/bulk", heading: "Bulk purchase check", list: true },
  { name: "a bulk check's results", path: () => `/purchases/bulk/${bulkJob}`, heading: "Bulk purchase check", list: true },
  { name: "purchase history", path: "/purchases/history", heading: "Purchase check history", list: true },
  { name: "alerts", path: "/alerts?status=all", heading: "Alerts" },
  { name: "API tokens", path: "/tokens", heading: "API tokens" },
  { name: "seller account", path: "/account", heading: "Seller account" },
  { name: "users", path: "/admin/users", heading: "Users", list: true },
  { name: "audit log", path: "/admin/audit", heading: "Audit log", list: true },
  { name: "upstream connections", path: "/admin/upstream", heading: "Upstream connections" },
  { name: "webhooks", path: "/admin/webhooks", heading: "Webhooks" },
  { name: "403", path: "/admin/users", heading: "You may not open this page", role: "viewer" },
  { name: "404", path: "/no-such-page", heading: "Page not found" },
];

// A finished bulk check to show: made once, through the API, as the admin who opens it.
test.beforeAll(async () => {
  const admin = await request.newContext({ baseURL: PORTAL_URL, storageState: as("admin") });
  const created = await admin.post("/api/purchases/bulk", {
    headers: { "X-CSRF": "1" },
    data: { codes: [FIXED_PURCHASE_CODES.active, FIXED_PURCHASE_CODES.expired, FIXED_PURCHASE_CODES.none] },
  });
  expect(created.status(), await created.text()).toBe(202);
  bulkJob = ((await created.json()) as { data: { id: string } }).data.id;
  await expect
    .poll(async () => ((await (await admin.get(`/api/purchases/bulk/${bulkJob}`)).json()) as { data: { status: string } }).data.status)
    .toBe("done");
  await admin.dispose();
});

async function checkLayout(page: Page, target: Target): Promise<void> {
  const width = page.viewportSize()?.width;
  await untilSettled(page, target.heading);

  expect(await horizontalOverflow(page), `the page scrolls sideways at ${width} px (px wider than the window)`).toBe(0);

  const cells = await primaryCells(page, PRIMARY_CELL);
  if (target.list) {
    expect(cells.tables.length, "a list page shows a table").toBeGreaterThan(0);
    for (const table of cells.tables) expect(table.primary, `the table "${table.name}" has primary cells (${PRIMARY_CELL})`).toBeGreaterThan(0);
  }
  expect(cells.offScreen, `primary cells off screen at ${width} px`).toEqual([]);

  expect(await seriousViolations(page), "axe: serious and critical violations").toEqual([]);

  expect(await layoutShift(page), "layout shift while the page loads").toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);
}

for (const target of PAGES) {
  test.describe(target.name, () => {
    test.use({ storageState: target.role === null ? { cookies: [], origins: [] } : as(target.role ?? "admin") });

    for (const viewport of VIEWPORTS) {
      for (const theme of THEMES) {
        test.describe(() => {
          // Both ways a reader gets a theme: the system's scheme, and the choice saved by the theme toggle.
          test.use({ viewport, colorScheme: theme, reducedMotion: "reduce" });

          test(`${target.name} at ${viewport.width}×${viewport.height}, ${theme}`, async ({ page }) => {
            await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [THEME_STORAGE_KEY, theme] as const);
            await watchLayoutShifts(page);
            await page.goto(typeof target.path === "string" ? target.path : target.path());
            await checkLayout(page, target);
            await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
          });
        });
      }
    }
  });
}
