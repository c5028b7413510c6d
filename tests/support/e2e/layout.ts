// What the layout spec (tests/e2e/layout.spec.ts) measures on a page: its layout shift, seen by a
// PerformanceObserver registered before the page's own scripts run; whether it scrolls sideways; whether every
// table's primary cells (DataTable's `priority: "primary"` columns, rendered with data-primary) lie on screen.
import { expect, type Page } from "@playwright/test";

declare global {
  interface Window {
    /** Sum of the layout shifts without recent input since the document started (see watchLayoutShifts). */
    __layoutShift?: number;
  }
}

/**
 * Starts summing layout shifts in every document the page opens, as Lighthouse and the Web Vitals do (entries
 * with hadRecentInput are the reader's own doing). Registered with addInitScript, so it runs before any script
 * of the page; `buffered` also delivers shifts recorded before the observer existed.
 */
export async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__layoutShift = 0;
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) window.__layoutShift = (window.__layoutShift ?? 0) + entry.value;
        }
      }).observe({ type: "layout-shift", buffered: true });
    } catch {
      // A browser without the Layout Instability API: the reading below then fails the test, as it should here.
      delete window.__layoutShift;
    }
  });
}

/**
 * Waits until the page has settled: its main heading is visible, no region says aria-busy (skeletons, lists
 * loading), every image (but a lazy one off screen) has loaded or failed, and two frames have been painted since (so the observer has
 * been told of the last shift). Conditions only, never a duration.
 */
export async function untilSettled(page: Page, heading: string | RegExp): Promise<void> {
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.waitForFunction(
    () =>
      document.readyState === "complete" &&
      [...document.images].every((image) => image.complete || image.loading === "lazy"),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The layout shift summed so far (see watchLayoutShifts). */
export async function layoutShift(page: Page): Promise<number> {
  const value = await page.evaluate(() => window.__layoutShift);
  if (typeof value !== "number")
    throw new Error("the layout-shift observer did not run: was watchLayoutShifts called before the page opened?");
  return value;
}

/** How many CSS pixels the page is wider than the window (0 when nothing scrolls sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() =>
    Math.max(0, (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth),
  );
}

export interface PrimaryCells {
  /** Tables on the page, each with how many of its cells are primary. */
  tables: { name: string; primary: number }[];
  /** Visible primary cells that reach past the window's left or right edge, described for the failure message. */
  offScreen: string[];
}

/**
 * The primary cells of every table on the page (`selector`: what marks a primary cell), and those of them that
 * are visible yet not wholly within the window's width (a reader would have to scroll sideways to see them).
 */
export async function primaryCells(page: Page, selector: string): Promise<PrimaryCells> {
  return page.evaluate((primary) => {
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== "hidden";
    };
    const tables = [...document.querySelectorAll("table")].filter(visible);
    const offScreen: string[] = [];
    for (const table of tables) {
      for (const cell of table.querySelectorAll(primary)) {
        if (!visible(cell)) continue;
        const box = cell.getBoundingClientRect();
        if (box.left < -0.5 || box.right > window.innerWidth + 0.5) {
          offScreen.push(
            `"${(cell.textContent ?? "").trim().slice(0, 40)}" spans ${Math.round(box.left)}–${Math.round(box.right)} px of ${window.innerWidth}`,
          );
        }
      }
    }
    return {
      tables: tables.map((table) => ({
        name: table.caption?.textContent?.trim() || table.getAttribute("aria-label") || "a table without a caption",
        primary: [...table.querySelectorAll(primary)].filter(visible).length,
      })),
      offScreen,
    };
  }, selector);
}
