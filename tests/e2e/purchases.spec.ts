// Purchase codes checked as a seller does: valid with active support, expired support, no support, invalid,
// and a pasted code with an invisible character; once by keyboard alone.
import { as, expect, shot, test } from "./support/fixtures";

test.use({ storageState: as("support") });

const ACTIVE = "11111111-1111-4111-8111-111111111111";
const EXPIRED = "22222222-2222-4222-8222-222222222222";
const NO_SUPPORT = "33333333-3333-4333-8333-333333333333";

async function check(page: import("@playwright/test").Page, code: string) {
  await page.getByLabel(/Purchase code/).fill(code);
  await page.getByRole("button", { name: "Check code" }).click();
}

test("a valid code with active support shows the purchase and its item", async ({ page }, testInfo) => {
  await page.goto("/purchases");
  await check(page, `  ${ACTIVE}  `);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  const result = page.getByRole("main");
  await expect(result.locator("dd").filter({ hasText: /Active\s+until \d/ })).toBeVisible();
  for (const term of ["Item", "Licence", "Price", "Purchased", "Downloaded", "Support"]) await expect(result.getByText(term, { exact: true })).toBeVisible();
  await expect(result.getByRole("img", { name: /^Preview of / })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^The code is valid/ })).toBeAttached();
  await shot(page, testInfo, "purchase-valid");
});

test("expired support, no support, and an invalid code are each said plainly", async ({ page }) => {
  await page.goto("/purchases");
  await check(page, EXPIRED);
  await expect(page.locator("dd").filter({ hasText: /Expired\s+on \d/ })).toBeVisible();

  await check(page, NO_SUPPORT);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await expect(page.locator("dd").filter({ hasText: /^None$/ })).toBeVisible();

  await check(page, "not-a-real-code");
  await expect(page.getByRole("heading", { name: /This purchase code is not valid/ })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("Check it with the buyer");
});

test("a code with an invisible character is cleaned, and the seller is told", async ({ page }, testInfo) => {
  await page.goto("/purchases");
  await check(page, `11111111\u200b-1111-4111-8111-111111111111`);
  const notice = page.getByRole("status").filter({ hasText: "invisible" });
  await expect(notice).toContainText("The code held 1 invisible character: zero-width space (U+200B) at position 9. It was removed.");
  await expect(notice).toContainText(`The code was checked as ${ACTIVE}.`);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await shot(page, testInfo, "purchase-invisible-character");

  await check(page, "1111111l-1111-4111-8111-11111111111\u0430");
  await expect(page.getByRole("status").filter({ hasText: "looks like" })).toContainText('Cyrillic small letter a (U+0430) at position 36, read as "a"');
});

test("keyboard only: skip to the content, type a code, check it", async ({ page }) => {
  await page.goto("/purchases");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel(/Purchase code/)).toBeFocused();
  await page.keyboard.type(ACTIVE);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Check code" })).toBeFocused();
});

test("the dashboard's quick box checks a code in place", async ({ page }) => {
  await page.goto("/");
  const box = page.getByRole("region", { name: "Check a purchase code" });
  await box.getByLabel(/Purchase code/).fill(EXPIRED);
  await box.getByRole("button", { name: "Check code" }).click();
  await expect(box.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await expect(box.locator("dd").filter({ hasText: /Expired\s+on \d/ })).toBeVisible();
});
