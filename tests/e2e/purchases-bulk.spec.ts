// The bulk purchase check as a seller uses it: paste a list (valid, unknown, look-alike and repeated codes),
// watch it finish, read the results, download the CSV; read the list from a .txt or .csv file; cancel a slow
// job; come back to a job that is still running; a 429 from the item service said in words; axe in light and
// dark. (The hourly bulk allowance is not exhausted here: the browser tests' portal sets it out of reach, and
// tests/http/api/purchases/bulk*.test.ts prove its refusal through the API.)
import { readFileSync } from "node:fs";

import type { Page } from "@playwright/test";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { seedSellers } from "@/lib/sandbox/seed";

import { as, checkBothThemes, expect, sandbox, shot, test } from "@/tests/support/e2e/fixtures";

import { closeFiltersWithEscape, expectPrimaryCellsInView, openFilters, PHONE } from "./list-phone";

const VALIDATION_PATH = "/market/api/purchases/validation";

/** Codes the sandbox sells: the three fixed ones, then seeded ones. */
const SOLD = [
  FIXED_PURCHASE_CODES.active,
  FIXED_PURCHASE_CODES.expired,
  FIXED_PURCHASE_CODES.none,
  ...[...seedSellers().main.purchases.keys()].filter(
    (code) => !(Object.values(FIXED_PURCHASE_CODES) as string[]).includes(code),
  ),
];

/** Codes nobody bought, unique to this run so that earlier runs' jobs never match them. */
const runId = Date.now().toString(16).slice(-8).padStart(8, "0");
const unknown = (n: number) => `${runId}-0000-4000-8000-${String(n).padStart(12, "0")}`;

async function pasteCodes(page: Page, codes: readonly string[]) {
  await page.getByLabel(/Purchase codes/).fill(codes.join("\n"));
}

async function countOf(page: Page, label: string): Promise<string> {
  return page
    .getByRole("term")
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd")
    .innerText();
}

const progressBar = (page: Page) => page.getByRole("progressbar", { name: "Codes checked" });

test.afterEach(async () => sandbox.reset());

test.describe("as support", () => {
  test.use({ storageState: as("support") });

  test("20 pasted codes: counted before sending, checked on the server, results and CSV right", async ({
    page,
  }, testInfo) => {
    const lookalike = `${FIXED_PURCHASE_CODES.active.slice(0, 35)}\u0430`; // ends in a Cyrillic "а"
    const valid = SOLD.slice(0, 10);
    const unknowns = [1, 2, 3, 4, 5].map(unknown);
    const pasted = [
      ...valid,
      ...unknowns,
      lookalike,
      FIXED_PURCHASE_CODES.active, // repeated as is
      `  ${FIXED_PURCHASE_CODES.active}\u200b  `, // repeated with spaces and an invisible character: the same code once cleaned
      unknowns[0]!,
      valid[4]!,
    ];
    expect(pasted).toHaveLength(20);

    await page.goto("/purchases/bulk");
    await expect(page.getByRole("heading", { level: 1, name: "Bulk purchase check" })).toBeVisible();
    await pasteCodes(page, pasted);
    await expect(page.getByText("20 codes, 4 duplicates — 16 will be checked")).toBeVisible();
    await expect(page.getByText("1 code cannot be a purchase code")).toBeVisible();
    await expect(page.getByText(/Code 16: .*Cyrillic/)).toBeVisible();
    await shot(page, testInfo, "bulk-form");

    await page.getByRole("button", { name: "Check 16 codes" }).click();
    await expect(page).toHaveURL(/\/purchases\/bulk\/[0-9a-f-]{36}$/);
    await expect(progressBar(page)).toHaveAttribute("aria-valuemax", "16");
    // The look-alike was refused before any call: not a purchase code, not an invalid purchase.
    await expect(
      page.getByRole("status").filter({ hasText: "Finished: 10 valid, 5 invalid, 0 failed, 1 not a purchase code." }),
    ).toBeAttached({ timeout: 30_000 });
    await expect(progressBar(page)).toHaveAttribute("aria-valuenow", "16");
    expect(await countOf(page, "Valid")).toBe("10");
    expect(await countOf(page, "Invalid")).toBe("5");
    expect(await countOf(page, "Not purchase codes")).toBe("1");
    expect(await countOf(page, "Failed")).toBe("0");
    expect(await countOf(page, "Left")).toBe("0");
    await expect(page.getByRole("button", { name: "Cancel check" })).toHaveCount(0);

    const results = page.getByRole("table", { name: "Results of the bulk check" });
    await expect(results.locator("tbody tr")).toHaveCount(16);
    const active = results.getByRole("row", { name: new RegExp(FIXED_PURCHASE_CODES.active) });
    await expect(active).toContainText("Valid");
    await expect(active.getByRole("cell").nth(2)).toHaveText("3"); // #, status, times in list
    await expect(
      results
        .getByRole("row", { name: new RegExp(unknowns[0]!) })
        .getByRole("cell")
        .nth(2),
    ).toHaveText("2");
    await expect(results.getByRole("row", { name: new RegExp(lookalike) })).toContainText(/Cyrillic/);
    await shot(page, testInfo, "bulk-job-done");

    await page.getByLabel("Show").selectOption({ label: "Invalid (5)" });
    await expect(results.locator("tbody tr")).toHaveCount(5);
    for (const code of unknowns)
      await expect(results.getByRole("row", { name: new RegExp(code) })).toContainText("Invalid");

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^bulk-check-[0-9a-f-]{36}\.csv$/);
    const lines = readFileSync((await download.path())!, "utf8")
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toMatch(/^position,code,occurrences,status,reason/);
    expect(lines).toHaveLength(1 + 16);
    // Times with the person's zone's offset (the browser's, Berlin: +01:00 in winter, +02:00 in summer).
    expect(lines[1]).toMatch(/,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00,/);
    expect(lines.filter((line) => line.includes(",valid,"))).toHaveLength(10);
    expect(lines.find((line) => line.includes(FIXED_PURCHASE_CODES.active))).toMatch(
      new RegExp(`^1,${FIXED_PURCHASE_CODES.active},3,valid,`),
    );

    // The job is listed on the bulk page, finished.
    await page.getByRole("link", { name: "‹ Bulk check" }).click();
    const recent = page.getByRole("table", { name: "Recent bulk checks" });
    await expect(recent.locator("tbody tr").first()).toContainText("Done");
    await expect(recent.locator("tbody tr").first()).toContainText("16 (100%)");
  });

  test("a .txt and a .csv file are read in the browser into the list", async ({ page }) => {
    await page.goto("/purchases/bulk");
    const file = page.getByLabel("Or read the codes from a file");
    await file.setInputFiles({
      name: "codes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from(
        `${FIXED_PURCHASE_CODES.active}\r\n\r\n${FIXED_PURCHASE_CODES.expired}\r\n${FIXED_PURCHASE_CODES.active}\r\n`,
      ),
    });
    await expect(page.getByRole("status").filter({ hasText: "Read 3 codes from codes.txt." })).toBeVisible();
    await expect(page.getByLabel(/Purchase codes/)).toHaveValue(
      `${FIXED_PURCHASE_CODES.active}\n${FIXED_PURCHASE_CODES.expired}\n${FIXED_PURCHASE_CODES.active}`,
    );
    await expect(page.getByText("3 codes, 1 duplicate — 2 will be checked")).toBeVisible();

    await file.setInputFiles({
      name: "sales.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        `buyer;Purchase Code;amount\nAnn;${FIXED_PURCHASE_CODES.none};12,50\nBen;"${FIXED_PURCHASE_CODES.expired}";9\n`,
      ),
    });
    await expect(
      page.getByRole("status").filter({ hasText: "Read 2 codes from sales.csv (column “Purchase Code”)." }),
    ).toBeVisible();
    await expect(page.getByLabel(/Purchase codes/)).toHaveValue(
      `${FIXED_PURCHASE_CODES.none}\n${FIXED_PURCHASE_CODES.expired}`,
    );
    await page.getByRole("button", { name: "Check 2 codes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Finished: 2 valid, 0 invalid, 0 failed." })).toBeAttached({
      timeout: 20_000,
    });

    await page.goto("/purchases/bulk");
    await file.setInputFiles({
      name: "photo.png",
      mimeType: "image/png",
      buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    });
    await expect(page.getByText("photo.png is not a .csv or .txt file.")).toBeVisible();
  });

  test("more than 500 codes, or none, are refused before anything is sent", async ({ page }) => {
    await page.goto("/purchases/bulk");
    await page.getByRole("button", { name: "Check codes" }).click();
    await expect(page.getByLabel(/Purchase codes/)).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Paste at least one purchase code, or choose a file.")).toBeVisible();

    await pasteCodes(
      page,
      Array.from({ length: 501 }, (_, n) => unknown(1000 + n)),
    );
    await expect(page.getByText("501 codes: at most 500 per check.")).toBeVisible();
    await page.getByRole("button", { name: "Check codes" }).click();
    await expect(page.getByText(/That is 501 codes; one check takes at most 500\./)).toBeVisible();
    await expect(page).toHaveURL(/\/purchases\/bulk$/);
  });

  test("a slow job keeps running when the page is reloaded, and cancelling stops it", async ({ page }, testInfo) => {
    // Every check takes 1.5 s: 30 codes, 3 at a time, take about 15 s.
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "latency", latencyMs: 1500 });
    await page.goto("/purchases/bulk");
    await pasteCodes(
      page,
      Array.from({ length: 30 }, (_, n) => unknown(100 + n)),
    );
    await page.getByRole("button", { name: "Check 30 codes" }).click();
    await expect(page).toHaveURL(/\/purchases\/bulk\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("status").filter({ hasText: "Checking 30 codes." })).toBeAttached();
    await expect(progressBar(page)).not.toHaveAttribute("aria-valuenow", "0", { timeout: 10_000 });
    const before = Number(await progressBar(page).getAttribute("aria-valuenow"));
    await shot(page, testInfo, "bulk-job-running");

    await page.reload();
    const after = Number(await progressBar(page).getAttribute("aria-valuenow"));
    expect(after).toBeGreaterThanOrEqual(before);
    expect(after).toBeLessThan(30);
    await expect(
      page.getByText(
        /^\d+ of 30 checked \(\d+%\)\. (About \d+ min left|Less than a minute left|Estimating the time left)\.$/,
      ),
    ).toBeVisible();

    await page.getByRole("button", { name: "Cancel check" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel this bulk check?" });
    await expect(dialog).toContainText("not checked yet will not be checked");
    await dialog.getByRole("button", { name: "Cancel check" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: /^Cancelled: \d+ checked/ })).toBeAttached({
      timeout: 15_000,
    });
    const cancelled = Number(await countOf(page, "Cancelled"));
    expect(cancelled).toBeGreaterThan(0);
    await page.getByLabel("Show").selectOption({ label: `Cancelled (${cancelled})` });
    await expect(page.getByRole("table", { name: "Results of the bulk check" }).locator("tbody tr")).toHaveCount(
      cancelled,
    );
    await shot(page, testInfo, "bulk-job-cancelled");
  });

  test("when the item service asks to slow down, the page says until when, then the job finishes", async ({ page }) => {
    await sandbox.injectFault({
      method: "POST",
      path: VALIDATION_PATH,
      kind: "status",
      status: 429,
      headers: { "retry-after": "4" },
      times: 1,
    });
    await page.goto("/purchases/bulk");
    await pasteCodes(page, [
      FIXED_PURCHASE_CODES.active,
      FIXED_PURCHASE_CODES.expired,
      FIXED_PURCHASE_CODES.none,
      unknown(200),
    ]);
    await page.getByRole("button", { name: "Check 4 codes" }).click();
    await expect(
      page.getByText(/Waiting for the item service until .+: it asked Gatehouse to slow down/),
    ).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Finished: 3 valid, 1 invalid, 0 failed." })).toBeAttached({
      timeout: 20_000,
    });
  });
});

test.describe("a 500-code job a seller can work through", () => {
  test.use({ storageState: as("support") });

  test("re-check the failed rows, then page, filter and search with the state in the URL, copy the valid codes", async ({
    page,
    context,
  }, testInfo) => {
    test.setTimeout(120_000);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const unknowns = Array.from({ length: 500 - SOLD.length }, (_, n) => unknown(3000 + n));
    const codes = [...SOLD, ...unknowns];
    expect(codes).toHaveLength(500);

    // The item service answers 503 to every check: each code fails after its tries, for a reason a retry can pass.
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 503 });
    await page.goto("/purchases/bulk");
    await pasteCodes(page, codes);
    await page.getByRole("button", { name: "Check 500 codes" }).click();
    await expect(page).toHaveURL(/\/purchases\/bulk\/[0-9a-f-]{36}$/);
    await expect(
      page.getByRole("status").filter({ hasText: "Finished: 0 valid, 0 invalid, 500 failed." }),
    ).toBeAttached({ timeout: 90_000 });
    const jobUrl = page.url();

    await sandbox.clearFaults();
    await page.getByRole("button", { name: "Re-check failed rows (500)" }).click();
    await expect(page.getByText("500 failed codes are being checked again.")).toBeVisible();
    await expect(
      page
        .getByRole("status")
        .filter({ hasText: `Finished: ${SOLD.length} valid, ${unknowns.length} invalid, 0 failed.` }),
    ).toBeAttached({ timeout: 60_000 });
    expect(await countOf(page, "Failed")).toBe("0");
    await expect(page.getByRole("button", { name: /Re-check failed rows/ })).toHaveCount(0);

    // Pages of 50, the page in the URL.
    const results = page.getByRole("table", { name: "Results of the bulk check" });
    await expect(results.locator("tbody tr")).toHaveCount(50);
    const pages = page.getByRole("navigation", { name: "Result pages" });
    await pages.getByRole("link", { name: /^(Page )?2$/ }).click();
    await expect(page).toHaveURL(`${jobUrl}?page=2`);
    await expect(results.locator("tbody tr").first().getByRole("cell").first()).toHaveText("51");

    // The filter, in the URL; back to page 1.
    await page.getByLabel("Show").selectOption({ label: `Valid (${SOLD.length})` });
    await expect(page).toHaveURL(`${jobUrl}?status=valid`);
    await expect(results.locator("tbody tr")).toHaveCount(SOLD.length);
    await page.getByLabel("Show").selectOption("support_expired");
    await expect(page).toHaveURL(`${jobUrl}?status=support_expired`);
    await expect(results.locator("tbody tr").first()).toContainText("Valid, support expired");

    // The search, in the URL: part of a code, upper case.
    await page.getByLabel("Show").selectOption("");
    const wanted = unknowns[123]!;
    await page.getByLabel("Search the results").fill(wanted.slice(-12).toUpperCase());
    await expect(page).toHaveURL(`${jobUrl}?q=${wanted.slice(-12).toUpperCase()}`);
    await expect(results.locator("tbody tr")).toHaveCount(1);
    await expect(results.locator("tbody tr")).toContainText(wanted);
    await shot(page, testInfo, "bulk-job-search");

    // A reload (or a shared link) shows the same rows.
    await page.goto(`${jobUrl}?status=invalid&page=3`);
    await expect(page.getByLabel("Show")).toHaveValue("invalid");
    await expect(results.locator("tbody tr")).toHaveCount(50);
    await expect(results.locator("tbody tr").first()).toContainText("Invalid");
    await page.reload();
    await expect(page.getByRole("navigation", { name: "Result pages" }).locator("[aria-current=page]")).toHaveText(/3/);

    // Every valid code of the job, from all pages, on the clipboard; a screen reader hears it.
    await page.getByRole("button", { name: "Copy valid codes" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `${SOLD.length} valid codes copied to the clipboard.` }),
    ).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split("\n").sort()).toEqual([...SOLD].sort());
  });
});

test.describe("every bulk page, light and dark", () => {
  test.use({ storageState: as("admin") });

  test("the form, a finished job and the list pass axe", async ({ page }, testInfo) => {
    await page.goto("/purchases/bulk");
    await pasteCodes(page, [
      FIXED_PURCHASE_CODES.active,
      `${FIXED_PURCHASE_CODES.expired.slice(0, 35)}\u0430`,
      FIXED_PURCHASE_CODES.active,
    ]);
    await expect(page.getByText("3 codes, 1 duplicate — 2 will be checked")).toBeVisible();
    await checkBothThemes(page, testInfo, "bulk-form");

    await page.getByRole("button", { name: "Check 2 codes" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Finished: 1 valid, 0 invalid, 0 failed, 1 not a purchase code." }),
    ).toBeAttached({ timeout: 20_000 });
    await checkBothThemes(page, testInfo, "bulk-job");

    const response = await page.goto("/purchases/bulk/00000000-0000-4000-8000-000000000000");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Bulk check not found" })).toBeVisible();
  });
});

test.describe("on a phone", () => {
  test.use({ storageState: as("support"), viewport: PHONE });

  test("results are cards led by the code and its status; the status filter waits in the Filters (N) sheet", async ({
    page,
  }, testInfo) => {
    const created = await page.request.post("/api/purchases/bulk", {
      headers: { "X-CSRF": "1" },
      data: { codes: [FIXED_PURCHASE_CODES.active, unknown(40), unknown(41)] },
    });
    expect(created.status()).toBe(202);
    const id: string = (await created.json()).data.id;
    await page.goto(`/purchases/bulk/${id}`);
    await expect(page.getByRole("status").filter({ hasText: "Finished: 1 valid, 2 invalid, 0 failed." })).toBeAttached({
      timeout: 20_000,
    });
    const results = page.getByRole("table", { name: "Results of the bulk check" });
    await expect(results.locator("tbody tr")).toHaveCount(3);
    await expectPrimaryCellsInView(page, results);
    await expect(page.getByText("In list order", { exact: true })).toBeVisible();
    await expect(page.getByLabel("Search the results")).toBeVisible();

    const sheet = await openFilters(page, 0);
    await sheet.getByLabel("Show").selectOption({ label: "Invalid (2)" });
    await expect(page).toHaveURL(/status=invalid/);
    await expect(sheet.getByRole("button", { name: "Show 2 codes" })).toBeVisible();
    await closeFiltersWithEscape(page, 1);
    await expect(results.locator("tbody tr")).toHaveCount(2);
    await expectPrimaryCellsInView(page, results);
    await shot(page, testInfo, "bulk-job-phone");

    await page.goto("/purchases/bulk");
    await expectPrimaryCellsInView(page, page.getByRole("table", { name: "Recent bulk checks" }));
  });
});
