// The purchase check history as a seller's support uses it: codes checked in bulk and one by one are listed;
// filter by outcome (kept in the URL); find a code by its full text (kept out of the URL); a look-alike is
// refused with the reason; the CSV carries the same filters; a bulk row links to its job; axe in light and dark.
import { readFileSync } from "node:fs";

import type { APIRequestContext, Page } from "@playwright/test";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { as, checkBothThemes, expect, sandbox, shot, test } from "@/tests/support/e2e/fixtures";

import { closeFiltersWithEscape, expectPrimaryCellsInView, openFilters, PHONE } from "./list-phone";

const CSRF = { "X-CSRF": "1" };
const runId = Date.now().toString(16).slice(-8).padStart(8, "0");
/** Codes nobody bought, unique to this run: the history holds exactly the checks this test makes of them. */
const unknown = (n: number) => `${runId}-1111-4000-8000-${String(n).padStart(12, "0")}`;

/** Runs a bulk check through the API and waits for it to finish; its id. */
async function bulkCheck(request: APIRequestContext, codes: string[]): Promise<string> {
  const created = await request.post("/api/purchases/bulk", { headers: CSRF, data: { codes } });
  expect(created.status()).toBe(202);
  const id: string = (await created.json()).data.id;
  await expect
    .poll(async () => (await (await request.get(`/api/purchases/bulk/${id}`)).json()).data.status, { timeout: 20_000 })
    .toBe("done");
  return id;
}

const table = (page: Page) => page.getByRole("table", { name: "Purchase checks" });

test.use({ storageState: as("support") });

test("bulk and single checks are in the history: filter, find by full code, CSV, link to the job", async ({
  page,
}, testInfo) => {
  const jobId = await bulkCheck(page.request, [FIXED_PURCHASE_CODES.expired, unknown(1), unknown(2)]);
  const single = await page.request.post("/api/purchases/validate", {
    headers: CSRF,
    data: { purchase_code: unknown(3) },
  });
  expect(single.status()).toBe(200);

  await page.goto("/purchases/history");
  await expect(page.getByRole("heading", { level: 1, name: "Purchase check history" })).toBeVisible();
  // Newest first: the single check, then the bulk job's codes.
  const first = table(page).locator("tbody tr").first();
  await expect(first).toContainText(unknown(3).slice(-4));
  await expect(first).toContainText("Single check");
  await expect(first).toContainText("support@e2e.test");
  await shot(page, testInfo, "history");

  await page.getByLabel("Outcome").selectOption("invalid");
  await expect(page).toHaveURL(/\/purchases\/history\?outcome=invalid$/);
  await expect(table(page).locator("tbody tr").first()).toContainText("Invalid");
  await expect(table(page).locator("tbody tr").filter({ hasText: /Valid/ })).toHaveCount(0);

  // A full code is found through its fingerprint, and never put in any URL — the page's, the API's or the
  // download's: it travels in the body of a POST.
  const requests: Array<{ url: string; method: string; body: string | null }> = [];
  page.on("request", (request) =>
    requests.push({ url: request.url(), method: request.method(), body: request.postData() }),
  );
  const codeField = page.getByLabel("Full purchase code");
  await codeField.fill(`  ${unknown(2)}\u200b `);
  await page.getByRole("button", { name: "Find" }).click();
  await expect(table(page).locator("tbody tr")).toHaveCount(1);
  const row = table(page).locator("tbody tr").first();
  await expect(row).toContainText(unknown(2).slice(-4));
  await expect(row).toContainText("Invalid purchase code");
  await expect(page.getByText(`Showing the checks of the code ending ${unknown(2).slice(-4)}.`)).toBeVisible();
  expect(page.url()).not.toContain(runId);
  await shot(page, testInfo, "history-code-search");

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.url()).not.toContain(runId);
  expect(requests.filter((request) => request.url.includes(runId))).toEqual([]);
  const searches = requests.filter((request) => request.method === "POST" && request.body?.includes(unknown(2)));
  expect(searches.map((request) => new URL(request.url).pathname)).toEqual(
    expect.arrayContaining(["/api/purchases/history/search", "/api/purchases/history/search.csv"]),
  );
  const lines = readFileSync((await download.path())!, "utf8")
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(unknown(2).slice(-4));
  expect(lines[1]).toContain("invalid");

  await row.getByRole("link", { name: "Bulk check" }).click();
  await expect(page).toHaveURL(new RegExp(`/purchases/bulk/${jobId}$`));
  await expect(page.getByRole("table", { name: "Results of the bulk check" }).locator("tbody tr")).toHaveCount(3);
  await page.goBack();

  // A look-alike cannot be a code anyone checked: refused with the reason, before any request.
  await page
    .getByLabel("Full purchase code")
    .fill(`${FIXED_PURCHASE_CODES.expired.slice(0, 8)}\u2010${FIXED_PURCHASE_CODES.expired.slice(9)}`);
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByLabel("Full purchase code")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Character 9 is a typographic hyphen")).toBeVisible();

  await page.getByRole("button", { name: "Clear the filters" }).first().click();
  await expect(page).toHaveURL(/\/purchases\/history$/);
  await expect(page.getByLabel("Full purchase code")).toHaveValue("");
});

test("the filters are read from the URL, and an empty result says what to do", async ({ page }) => {
  await page.goto("/purchases/history?outcome=failed&user=nobody%40e2e.test&from=2020-01-01&to=2020-01-02");
  await expect(page.getByLabel("Outcome")).toHaveValue("failed");
  await expect(page.getByLabel("Checked by (email)")).toHaveValue("nobody@e2e.test");
  await expect(page.getByRole("heading", { level: 2, name: "No checks match" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute(
    "href",
    "/api/purchases/history.csv?outcome=failed&user=nobody%40e2e.test&from=2020-01-01&to=2020-01-02&time_zone=Europe%2FBerlin",
  );
});

test.describe("light and dark", () => {
  test.use({ storageState: as("admin") });

  test("the history passes axe", async ({ page }, testInfo) => {
    await bulkCheck(page.request, [FIXED_PURCHASE_CODES.active, unknown(10)]);
    await page.goto("/purchases/history");
    await expect(table(page).locator("tbody tr").first()).toBeVisible();
    await checkBothThemes(page, testInfo, "history");
  });
});

test("a valid purchase whose support had expired is shown as such, apart from invalid", async ({ page }) => {
  const single = await page.request.post("/api/purchases/validate", {
    headers: CSRF,
    data: { purchase_code: FIXED_PURCHASE_CODES.expired },
  });
  expect(single.status()).toBe(200);
  await page.goto("/purchases/history?outcome=valid");
  const first = table(page).locator("tbody tr").first();
  await expect(first).toContainText(FIXED_PURCHASE_CODES.expired.slice(-4));
  await expect(first).toContainText("Valid, support expired");
});

test.describe("at a desk", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the columns fit 1440 px, a badge and one quieter line a row at most, newest first, long values whole in their title", async ({
    page,
  }, testInfo) => {
    await bulkCheck(page.request, [FIXED_PURCHASE_CODES.active, unknown(20), unknown(21)]);
    // A helpdesk's check with its ticket: the source and the ticket share one quieter line (it once widened the
    // column past the window).
    const lookup = await page.request.post("/api/helpdesk/lookup", {
      headers: { "X-CSRF": "1" },
      data: {
        text: `code ${FIXED_PURCHASE_CODES.expired}`,
        ticket: { system: "freshdesk", id: `4211-${Date.now()}`, url: "https://acme.freshdesk.com/a/tickets/4211" },
      },
    });
    expect(lookup.status(), await lookup.text()).toBe(200);
    await page.goto("/purchases/history");
    const when = table(page).getByRole("columnheader", { name: /When/ });
    await expect(when).toHaveAttribute("aria-sort", "descending");
    await expect(when).toContainText("Newest first");
    await expect(table(page).locator("tbody tr").first()).toBeVisible();
    await shot(page, testInfo, "history-1440");
    const { overflow, tallest } = await page.evaluate(() => {
      const region = document.querySelector('[role="region"][aria-labelledby]') as HTMLElement;
      const heights = [...region.querySelectorAll("tbody tr")].map((row) => row.getBoundingClientRect().height);
      return { overflow: region.scrollWidth - region.clientWidth, tallest: Math.max(...heights) };
    });
    expect(overflow).toBeLessThanOrEqual(0);
    // A badge and one quieter line under it at most: nothing wraps into more lines.
    console.log(`tallest history row at 1440 px: ${tallest}px`);
    expect(tallest).toBeLessThan(72);
    await expect(table(page).locator("tbody tr").first().getByTitle("support@e2e.test")).toBeVisible();
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("checks are cards led by the code and its outcome; the filters wait in the Filters (N) sheet", async ({
    page,
  }, testInfo) => {
    await bulkCheck(page.request, [FIXED_PURCHASE_CODES.active, unknown(30)]);
    await page.goto("/purchases/history");
    await expectPrimaryCellsInView(page, table(page));
    await expect(page.getByLabel("Outcome")).toBeHidden();
    await expect(page.getByText("Newest first", { exact: true })).toBeVisible();

    const sheet = await openFilters(page, 0);
    await sheet.getByLabel("Outcome").selectOption("invalid");
    await expect(page).toHaveURL(/\/purchases\/history\?outcome=invalid$/);
    await sheet.getByLabel("From (Europe/Berlin)").fill("2020-01-01");
    await expect(page).toHaveURL(/\?outcome=invalid&from=2020-01-01$/);
    await closeFiltersWithEscape(page, 2);
    await expect(table(page).locator("tbody tr").filter({ hasText: /Valid/ })).toHaveCount(0);
    await expectPrimaryCellsInView(page, table(page));
    await shot(page, testInfo, "history-phone");
  });

  test("a failed check's long reason wraps inside its card instead of pushing it past the screen", async ({ page }) => {
    await sandbox.injectFault({
      method: "POST",
      path: "/market/api/purchases/validation",
      kind: "status",
      status: 503,
    });
    try {
      const failed = await page.request.post("/api/purchases/validate", {
        headers: CSRF,
        data: { purchase_code: unknown(31) },
      });
      expect(failed.status()).toBeGreaterThanOrEqual(500);
    } finally {
      await sandbox.reset();
    }
    await page.goto("/purchases/history?outcome=failed");
    const row = table(page)
      .locator("tbody tr")
      .filter({ hasText: unknown(31).slice(-4) });
    await expect(row).toContainText(/answered|not answering/);
    await expectPrimaryCellsInView(page, table(page));
  });
});
