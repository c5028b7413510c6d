// Almost-codes (issue 31, point 2): a code one plausible slip from the UUID shape — the letter O for 0, spaces for
// hyphens — gets its slip named and the corrected code offered in one click: in the checker (a refused code and
// an invalid verdict alike), in the validate API's answer (`suggestion`) and in bulk results. Under `auto` (this
// portal) a letter O is sent, as the upstream's codes might not be UUIDs; spaces are refused by the cleaning.
// (Under `uuid`, purchases.formats.spec.ts: refused before any call, never counted as an invalid purchase.)
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { as, expect, sandbox, test } from "@/tests/support/e2e/fixtures";

test.use({ storageState: as("support") });

const LETTERS = FIXED_PURCHASE_CODES.letters; // 9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f
const WITH_O = `${LETTERS.slice(0, 26)}O${LETTERS.slice(27)}`; // "1aOb": the letter O at position 27
const O_SLIP = "letter O at position 27 — did you mean 0?";

test.afterEach(async () => sandbox.reset());

test("the checker names the slip and checks the corrected code in one click, the API says it too", async ({ page }) => {
  await page.goto("/purchases");
  const field = page.getByLabel(/Purchase code/);

  // Sent (auto), answered invalid: the verdict names the slip and offers the correction.
  await field.fill(WITH_O);
  await page.getByRole("button", { name: "Check code" }).click();
  await expect(page.getByRole("heading", { name: /This purchase code is not valid/ })).toBeVisible();
  const slip = page.getByTestId("slip");
  await expect(slip).toContainText(O_SLIP);
  await expect(slip).toContainText(LETTERS);
  await slip.getByRole("button", { name: "Check the corrected code" }).click();
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await expect(field).toHaveValue(LETTERS);

  // Spaces for hyphens: refused before any request, the slip named, the correction one click away.
  await field.fill(LETTERS.replace(/-/g, " "));
  await page.getByRole("button", { name: "Check code" }).click();
  await expect(slip).toContainText("a space at position 9 — did you mean a hyphen? (and 3 more like it)");
  await slip.getByRole("button", { name: "Check the corrected code" }).click();
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await expect(field).toHaveValue(LETTERS);

  // The API: the slip as a field of the verdict, and of the refusal.
  const invalid = await page.request.post("/api/purchases/validate", {
    headers: { "X-CSRF": "1" },
    data: { purchase_code: WITH_O },
  });
  expect((await invalid.json()).data.suggestion).toEqual({ slip: O_SLIP, code: LETTERS });
  const refused = await page.request.post("/api/purchases/validate", {
    headers: { "X-CSRF": "1" },
    data: { purchase_code: LETTERS.replace(/-/g, " ") },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error.suggestion).toMatchObject({ code: LETTERS });
});

test("bulk results name each slip and copy the corrected code in one click", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/purchases/bulk");
  const missing = LETTERS.slice(0, 35);
  await page.getByLabel(/Purchase codes/).fill([WITH_O, missing, FIXED_PURCHASE_CODES.active].join("\n"));
  await page.getByRole("button", { name: "Check 3 codes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Finished:/ })).toBeAttached({ timeout: 30_000 });

  const results = page.getByRole("table", { name: "Results of the bulk check" });
  const slipped = results.getByRole("row", { name: new RegExp(WITH_O) });
  await expect(slipped).toContainText(O_SLIP);
  await slipped.getByRole("button", { name: "Copy the corrected code" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Copied ${LETTERS}` })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(LETTERS);
  // A missing character is named, not guessed: nothing to copy.
  const short = results.getByRole("row", { name: new RegExp(`${missing}(?!\\w)`) });
  await expect(short).toContainText("one character missing in the last group (11, not 12)");
  await expect(short.getByRole("button", { name: "Copy the corrected code" })).toHaveCount(0);
});
