// A purchase over its life, as a seller meets it (issue 33): a code checked valid, then reversed at the marketplace
// (the sandbox's control API), reads "Revoked" with what was bought, in the checker and in a bulk job's results; a
// purchase whose support ends in 9 days says so; with the item service failing (503), a code checked before gets its
// last verdict, marked "Not fresh". At 1440 px and on a 390 px phone, nothing runs off the page. Each test puts the
// sandbox back (reversed sales reinstated, support dates and faults as seeded).
import type { Page } from "@playwright/test";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { seedSellers } from "@/lib/sandbox/seed";

import { as, expect, sandbox, shot, test } from "@/tests/support/e2e/fixtures";

import { PHONE } from "./list-phone";

test.use({ storageState: as("support") });
test.afterEach(async () => sandbox.reset());

const VALIDATION_PATH = "/market/api/purchases/validation";
const DAY_MS = 86_400_000;
const SALES = seedSellers().main.purchases;
/** Seeded sales no other browser test checks by name: the last ones (the fixed codes are everyone's). */
const SEEDED = [...SALES.keys()].filter((code) => !(Object.values(FIXED_PURCHASE_CODES) as string[]).includes(code));
const [REVERSED, ENDING, SEEN] = SEEDED.slice(-3);
const runId = Date.now().toString(16).slice(-8).padStart(8, "0");
const UNKNOWN = `${runId}-0000-4000-8000-000000000033`;

async function check(page: Page, code: string) {
  await page.getByLabel(/Purchase code/).fill(code);
  await page.getByRole("button", { name: "Check code" }).click();
}

async function overflow(page: Page): Promise<number> {
  return page.evaluate(() =>
    Math.max(0, (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth),
  );
}

test("a sale reversed after its code was seen valid reads Revoked, with what was bought, in the checker and in bulk", async ({
  page,
}, testInfo) => {
  const bought = SALES.get(REVERSED!)!;
  await page.goto("/purchases");
  await check(page, REVERSED!);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();

  await sandbox.setPurchase(REVERSED!, { reversed: true });
  await check(page, REVERSED!);
  const heading = page.getByRole("heading", { name: /This purchase is no longer valid/ });
  await expect(heading).toContainText("Revoked");
  const main = page.getByRole("main");
  await expect(main).toContainText(
    `(${bought.license_type}, item ${bought.item.name}), not valid now: the sale was probably refunded or reversed.`,
  );
  const term = (name: string) =>
    main
      .getByRole("term")
      .filter({ hasText: new RegExp(`^${name}$`) })
      .locator("xpath=following-sibling::dd");
  await expect(term("Item")).toHaveText(bought.item.name);
  await expect(term("Licence")).toHaveText(bought.license_type);
  await expect(term("Last valid")).not.toBeEmpty();
  await page.setViewportSize(PHONE);
  expect(await overflow(page)).toBe(0);
  await shot(page, testInfo, "purchase-revoked-phone");

  // In a bulk job: its own status, count and filter, and the item it was bought for.
  await page.setViewportSize({ width: 1440, height: 900 });
  const created = await page.request.post("/api/purchases/bulk", {
    headers: { "X-CSRF": "1" },
    data: { codes: [REVERSED, UNKNOWN] },
  });
  expect(created.status()).toBe(202);
  const jobUrl = `/purchases/bulk/${(await created.json()).data.id}`;
  await page.goto(jobUrl);
  await expect(
    page.getByRole("status").filter({ hasText: "Finished: 0 valid, 1 revoked, 1 invalid, 0 failed." }),
  ).toBeAttached({ timeout: 30_000 });
  await expect(
    page
      .getByRole("term")
      .filter({ hasText: /^Revoked$/ })
      .locator("xpath=following-sibling::dd"),
  ).toHaveText("1");
  const results = page.getByRole("table", { name: "Results of the bulk check" });
  const row = results.locator("tbody tr").filter({ hasText: REVERSED! });
  await expect(row).toContainText("Revoked");
  await expect(row).toContainText(bought.item.name);
  await expect(row).toContainText("not valid now: the sale was probably refunded or reversed.");
  await page.getByLabel("Show").selectOption({ label: "Revoked (valid before) (1)" });
  await expect(page).toHaveURL(`${jobUrl}?status=revoked`);
  await expect(results.locator("tbody tr")).toHaveCount(1);
  await shot(page, testInfo, "bulk-revoked");
  await page.setViewportSize(PHONE);
  await expect(results.locator("tbody tr")).toHaveCount(1);
  expect(await overflow(page)).toBe(0);
});

test("a purchase whose support ends in 9 days says so", async ({ page }) => {
  // Nine and a half days from now: whole days left, however long the check takes.
  await sandbox.setPurchase(ENDING!, { supported_until: new Date(Date.now() + 9.5 * DAY_MS).toISOString() });
  await page.goto("/purchases");
  await check(page, ENDING!);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await expect(page.getByText("Support ends in 9 days")).toBeVisible();
  await page.setViewportSize(PHONE);
  expect(await overflow(page)).toBe(0);
});

test("with the item service failing, a code checked before gets its last verdict, marked Not fresh", async ({
  page,
}, testInfo) => {
  await page.goto("/purchases");
  await check(page, SEEN!);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();

  await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 503 });
  await check(page, SEEN!);
  const heading = page.getByRole("heading", { name: /Last known: valid/ });
  await expect(heading).toContainText("Not fresh");
  await expect(page.getByRole("main")).toContainText(
    /Valid as of (moments|\d+ (minute|hour)s?) ago, checked by support@e2e\.test\. The item API did not answer now: this verdict is not fresh/,
  );
  await page.setViewportSize(PHONE);
  expect(await overflow(page)).toBe(0);
  await shot(page, testInfo, "purchase-not-fresh-phone");

  // A code never checked gets the failure, as before.
  await check(page, UNKNOWN.replace(/33$/, "34"));
  await expect(
    page.getByRole("alert").filter({ hasText: /HTTP 503|did not answer|answered with an error/ }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: /Last known/ })).toHaveCount(0);
});

test("the history marks a check that found the code possibly shared, at a desk and on a phone", async ({
  page,
}, testInfo) => {
  // Checked for three helpdesk tickets: the admin's default threshold (3 tickets in 30 days) is reached.
  const shared = UNKNOWN.replace(/33$/, "35");
  for (const id of ["e2e-1", "e2e-2", "e2e-3"]) {
    const answer = await page.request.post("/api/purchases/validate", {
      headers: { "X-CSRF": "1" },
      data: { purchase_code: shared, ticket: { system: "helpscout", id: `${runId}-${id}` } },
    });
    expect(answer.status()).toBe(200);
  }
  await page.goto("/purchases/history");
  await page.getByLabel("Full purchase code").fill(shared);
  await page.getByRole("button", { name: "Find" }).click();
  const rows = page.getByRole("table").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  // Newest first: the third check found it; the two before did not.
  await expect(rows.first()).toContainText("Possibly shared");
  await expect(rows.first()).toContainText("Single check");
  await expect(rows.filter({ hasText: "Possibly shared" })).toHaveCount(1);
  await page.setViewportSize(PHONE);
  await expect(rows.first()).toContainText("Possibly shared");
  expect(await overflow(page)).toBe(0);
  await shot(page, testInfo, "history-possibly-shared-phone");
});
