// The audit log reads like a ledger: each act by its own name (a regeneration is not a change), a purchase check
// by what it found, people and reports by name with the raw id one hover away, details in words — and the table
// fits a 1280 px window and reads on a phone, however long the URLs and emails in it.
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { as, expect, sandbox, shot, test } from "@/tests/support/e2e/fixtures";

import { closeFiltersWithEscape, expectPrimaryCellsInView, openFilters } from "./list-phone";

test.use({ storageState: as("admin") });
test.afterEach(async () => sandbox.reset());

const CSRF = { "X-CSRF": "1" };
const LONG_URL = `https://a-very-long-host-name-for-the-ledger-test.example.com/${"deep/".repeat(40)}page?with=${"q".repeat(60)}`;

async function noHorizontalOverflow(page: import("@playwright/test").Page) {
  const { page: pageOverflow, table } = await page.evaluate(() => {
    const region = document.querySelector('[role="region"][aria-labelledby]') as HTMLElement | null;
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      table: region ? region.scrollWidth - region.clientWidth : -1,
    };
  });
  expect(pageOverflow).toBeLessThanOrEqual(0);
  expect(table).toBeLessThanOrEqual(0);
}

test("regeneration, purchase outcomes, names and words; fits 1280 px and a phone", async ({ page }, testInfo) => {
  const created = await page.request.post("/api/reports", { headers: CSRF, data: { url: LONG_URL } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.id as number;
  expect((await page.request.patch(`/api/reports/${id}`, { headers: CSRF, data: { privacy: 1 } })).status()).toBe(200);
  expect((await page.request.patch(`/api/reports/${id}`, { headers: CSRF, data: { results: true } })).status()).toBe(
    200,
  );
  expect(
    (
      await page.request.post("/api/purchases/validate", {
        headers: CSRF,
        data: { purchase_code: FIXED_PURCHASE_CODES.active },
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await page.request.post("/api/purchases/validate", {
        headers: CSRF,
        data: { purchase_code: "44444444-4444-4444-8444-44444444d004" },
      })
    ).status(),
  ).toBe(200);
  expect(
    (await page.request.post("/api/purchases/validate", { headers: CSRF, data: { purchase_code: "AB12" } })).status(),
  ).toBe(200);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/admin/audit");
  const rows = page.getByRole("table", { name: "Audit log" }).locator("tbody tr");

  // Purchase checks say what they found; a 4-character code shows none of its characters.
  const short = rows.filter({ hasText: "too short to show any of it" }).first();
  await expect(short).toContainText("Purchase code checked");
  await expect(short).toContainText("Invalid");
  await expect(short).not.toContainText("AB12");
  await expect(rows.filter({ hasText: "code ending d004" }).first()).toContainText("not a valid purchase code");
  await expect(rows.filter({ hasText: `code ending ${FIXED_PURCHASE_CODES.active.slice(-4)}` }).first()).toContainText(
    "Valid",
  );
  await expect(rows.filter({ hasText: "Success" })).toHaveCount(0);

  // A regeneration is its own act; the change says what changed, in words; the report is named by its URL.
  const regenerated = rows.filter({ hasText: "Report regenerated" }).first();
  await expect(regenerated).toContainText("Results generated again.");
  await expect(regenerated.getByTitle(`Report ${id}`)).toContainText(
    "a-very-long-host-name-for-the-ledger-test.example.com",
  );
  const changed = rows.filter({ hasText: "Report changed" }).first();
  await expect(changed).toContainText("Changed the page privacy (now Private).");

  // People by name, their email and id one hover away.
  const who = regenerated.getByTitle(/^admin@e2e\.test · [0-9a-f-]{36}$/);
  await expect(who).toContainText("Administrator");
  await expect(regenerated).not.toContainText(/detail|changes:|error_code/);

  await noHorizontalOverflow(page);
  await shot(page, testInfo, "audit-1280");
  // The log cannot be re-sorted, and says its order where the sort would be.
  const whenHeader = page.getByRole("columnheader", { name: /When/ });
  await expect(whenHeader).toHaveAttribute("aria-sort", "descending");
  await expect(whenHeader).toContainText("Newest first");

  // A desk: the dates and badges on one line, nothing wider than the window.
  await page.setViewportSize({ width: 1440, height: 900 });
  await noHorizontalOverflow(page);
  const dateLines = await rows
    .locator("td:first-child time")
    .first()
    .evaluate((time) => time.getClientRects().length);
  expect(dateLines).toBe(1);
  await shot(page, testInfo, "audit-1440");

  // A phone: one block per row, labelled, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("table", { name: "Audit log" }).locator("thead"))
    .toBeHidden()
    .catch(() => undefined);
  await noHorizontalOverflow(page);
  const firstCell = rows.first().locator("td").first();
  expect(await firstCell.evaluate((cell) => getComputedStyle(cell, "::before").content)).toBe('"When"');
  await expectPrimaryCellsInView(page);
  await shot(page, testInfo, "audit-phone");

  // The filters fold behind "Filters (N)"; one chosen in the sheet applies at once and is counted.
  const sheet = await openFilters(page, 0);
  await sheet.getByLabel("Action").selectOption({ label: "Report regenerated" });
  await expect(page).toHaveURL(/\/admin\/audit\?action=report\.regenerate$/);
  await closeFiltersWithEscape(page, 1);
  await expect(rows.first()).toContainText("Report regenerated");
  await expect(rows.filter({ hasNotText: "Report regenerated" })).toHaveCount(0);
});

test("downloads what the filters select, as CSV and NDJSON", async ({ page }) => {
  const created = await page.request.post("/api/reports", { headers: CSRF, data: { url: "https://shop.example/a" } });
  expect(created.status()).toBe(201);
  await page.goto("/admin/audit?action=report.create");
  const csv = page.waitForEvent("download");
  await page.getByRole("link", { name: "CSV" }).click();
  const csvFile = await csv;
  expect(csvFile.suggestedFilename()).toBe("gatehouse-audit.csv");
  const csvText = Buffer.concat(await (await csvFile.createReadStream()).toArray()).toString("utf8");
  // A byte-order mark first, for spreadsheets.
  expect(csvText.startsWith("\ufeffid,at,")).toBe(true);
  const lines = csvText.trimEnd().split("\r\n");
  expect(lines.slice(1).every((line) => line.includes(",report.create,"))).toBe(true);
  expect(lines.length).toBeGreaterThan(1);

  const ndjson = page.waitForEvent("download");
  await page.getByRole("link", { name: "NDJSON" }).click();
  const text = Buffer.concat(await (await (await ndjson).createReadStream()).toArray()).toString("utf8");
  const records = text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { action: string; target: { label: string } });
  expect(records.map((r) => r.action)).toEqual(records.map(() => "report.create"));
  expect(records.some((r) => r.target.label === "https://shop.example/a")).toBe(true);
});
