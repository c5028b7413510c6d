// What the list specs check on a phone (390 × 844): the row's primary cells (name, result or status) are on the
// screen and nothing scrolls sideways; and the "Filters (N)" sheet opens, applies, counts and closes on Escape.
import type { Locator, Page } from "@playwright/test";

import { expect, seriousViolations } from "@/tests/support/e2e/fixtures";

export const PHONE = { width: 390, height: 844 } as const;

/** Every primary cell of the table's rows is laid out inside the viewport; the page does not scroll sideways. */
export async function expectPrimaryCellsInView(
  page: Page,
  table: Locator = page.getByRole("table").first(),
): Promise<void> {
  const cells = table.locator("tbody [data-primary]");
  await expect(cells.first()).toBeVisible();
  const outside = await cells.evaluateAll(
    (elements) =>
      elements
        .map((element) => element.getBoundingClientRect())
        .filter((box) => box.width === 0 || box.left < 0 || box.right > window.innerWidth + 0.5).length,
  );
  expect(outside).toBe(0);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** Opens the "Filters (N)" sheet from its button (which must say N) and returns the dialog, checked by axe. */
export async function openFilters(page: Page, count: number): Promise<Locator> {
  const button = page.getByRole("button", { name: `Filters (${count})` });
  await button.click();
  const sheet = page.getByRole("dialog", { name: "Filters" });
  await expect(sheet).toBeVisible();
  await expect(sheet.locator(":focus")).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  return sheet;
}

/** Escape closes the sheet and gives focus back to its button, which now counts `count` filters. */
export async function closeFiltersWithEscape(page: Page, count: number): Promise<void> {
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Filters" })).toBeHidden();
  await expect(page.getByRole("button", { name: `Filters (${count})` })).toBeFocused();
}
