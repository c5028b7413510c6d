// Bulk results as a support desk follows them up (issue 31, point 4): every code readable whole (monospace, never
// cut) with a copy button per row, reasons kept short with the cleaning notes on demand, "Copy invalid codes"
// beside "Copy valid codes", and the table as wide as the page — at 1440 px and on a 390 px phone, on one job.
import type { Locator } from "@playwright/test";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { as, expect, sandbox, shot, test } from "@/tests/support/e2e/fixtures";

import { PHONE } from "./list-phone";

test.use({ storageState: as("support") });
test.afterEach(async () => sandbox.reset());

const runId = Date.now().toString(16).slice(-8).padStart(8, "0");
const UNKNOWN = [1, 2].map((n) => `${runId}-0000-4000-8000-${String(n).padStart(12, "0")}`);
const LOOKALIKE = `${FIXED_PURCHASE_CODES.active.slice(0, 35)}\u0430`; // ends in a Cyrillic "а": refused
// Cleaned with notes: an invisible character and full-width digits, each said in a sentence.
const NOISY = `\u200b${UNKNOWN[1]!.slice(0, 30)}\uff10\uff10${UNKNOWN[1]!.slice(32)}`;

/** Whether the element is laid out whole inside its cell and the viewport (nothing of it cut or hidden). */
async function shownWhole(element: Locator): Promise<boolean> {
  return element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    const cell = node.closest("td, th")!.getBoundingClientRect();
    return box.width > 0 && box.left >= cell.left - 0.5 && box.right <= Math.min(cell.right, window.innerWidth) + 0.5;
  });
}

test("codes whole with a copy button, reasons short with details, invalid codes copied — at 1440 and 390 px", async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 1440, height: 900 });
  const created = await page.request.post("/api/purchases/bulk", {
    headers: { "X-CSRF": "1" },
    data: { codes: [FIXED_PURCHASE_CODES.active, UNKNOWN[0], NOISY, LOOKALIKE] },
  });
  expect(created.status()).toBe(202);
  await page.goto(`/purchases/bulk/${(await created.json()).data.id}`);
  await expect(page.getByRole("status").filter({ hasText: /^Finished:/ })).toBeAttached({ timeout: 30_000 });
  const results = page.getByRole("table", { name: "Results of the bulk check" });

  // Every code whole, in monospace, with its own copy button.
  for (const code of [FIXED_PURCHASE_CODES.active, UNKNOWN[0]!, UNKNOWN[1]!, LOOKALIKE]) {
    const shown = results.locator("code", { hasText: code }).first();
    await expect(shown).toHaveText(code);
    expect(await shownWhole(shown)).toBe(true);
  }
  expect(
    await results
      .locator("code")
      .first()
      .evaluate((node) => getComputedStyle(node).fontFamily),
  ).toMatch(/mono/i);
  await results.getByRole("button", { name: `Copy code ${UNKNOWN[0]}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `Copied ${UNKNOWN[0]}` })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(UNKNOWN[0]);

  // The reason short; the cleaning notes on demand.
  const noisy = results.getByRole("row", { name: new RegExp(UNKNOWN[1]!) });
  const notes = noisy.getByText(/zero-width space/);
  await expect(notes).toBeHidden();
  expect((await noisy.boundingBox())!.height).toBeLessThan(110);
  await noisy.getByText("Details").click();
  await expect(notes).toBeVisible();

  // Invalid codes (not valid purchases, and codes that cannot be one) beside the valid ones.
  const actions = page.getByRole("button", { name: "Copy valid codes" }).locator("..");
  await actions.getByRole("button", { name: "Copy invalid codes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "3 invalid codes copied to the clipboard." })).toBeVisible();
  expect((await page.evaluate(() => navigator.clipboard.readText())).split("\n").sort()).toEqual(
    [UNKNOWN[0]!, UNKNOWN[1]!, LOOKALIKE].sort(),
  );

  // The table takes the page's width (no cap narrower than the page), and all of it is in view at 1440 px: no
  // column pushed out of sight behind a sideways scroll.
  const main = await page.locator("main").evaluate((node) => {
    const style = getComputedStyle(node);
    return node.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  });
  const scroller = page.getByRole("region", { name: "Results of the bulk check" });
  expect((await scroller.boundingBox())!.width).toBeGreaterThanOrEqual(main - 1);
  expect(await scroller.evaluate((node) => node.scrollWidth - node.clientWidth)).toBeLessThanOrEqual(0);
  await shot(page, testInfo, "bulk-results-1440");

  // On a phone: each code whole on its card, nothing scrolls sideways.
  await page.setViewportSize(PHONE);
  for (const code of [FIXED_PURCHASE_CODES.active, UNKNOWN[0]!]) {
    const shown = results.locator("code", { hasText: code }).first();
    await expect(shown).toHaveText(code);
    expect(await shownWhole(shown)).toBe(true);
  }
  await expect(results.getByRole("button", { name: `Copy code ${UNKNOWN[0]}` })).toBeVisible();
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await shot(page, testInfo, "bulk-results-390");
});
