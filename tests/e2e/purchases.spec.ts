// Purchase codes checked as a seller does: valid with active support, expired support, no support, invalid;
// a pasted code with an invisible character or a full-width digit (cleaned, and the seller told), a look-alike
// letter (refused before any request, naming the character); what the history knew; once by keyboard alone.
import { as, expect, shot, test } from "@/tests/support/e2e/fixtures";

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
  // The result's terms (the per-item table below the form has an "Item" column too).
  for (const term of ["Item", "Licence", "Price", "Purchased", "Downloaded", "Support"])
    await expect(result.getByRole("term").filter({ hasText: new RegExp(`^${term}$`) })).toBeVisible();
  await expect(result.getByRole("img", { name: /^Preview of / })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^The code is valid/ })).toBeAttached();
  await shot(page, testInfo, "purchase-valid");
});

test("expired support, no support, and an invalid code are each said plainly", async ({ page }) => {
  await page.goto("/purchases");
  await check(page, EXPIRED);
  await expect(page.locator("dd").filter({ hasText: /Expired\s+on \d/ })).toBeVisible();
  // A real purchase whose support ended: its own words and colour, never those of "invalid".
  await expect(page.getByRole("heading", { name: /This purchase is real; its support has expired/ })).toContainText(
    "Valid, support expired",
  );
  await expect(page.getByText("Not valid")).toHaveCount(0);

  await check(page, NO_SUPPORT);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await expect(page.locator("dd").filter({ hasText: /^None$/ })).toBeVisible();

  await check(page, "not-a-real-code");
  await expect(page.getByRole("heading", { name: /This purchase code is not valid/ })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("Check it with the buyer");
});

test("a code with an invisible character is cleaned, checked, and the seller is told", async ({ page }, testInfo) => {
  await page.goto("/purchases");
  await check(page, `11111111\u200b-1111-4111-8111-111111111111`);
  const notice = page.getByRole("status").filter({ hasText: "cleaned before checking" });
  await expect(notice).toContainText("Character 9, a zero-width space (U+200B), was removed.");
  await expect(notice).toContainText(`Code checked: ${ACTIVE}`);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await shot(page, testInfo, "purchase-invisible-character");

  await check(page, "\uff11\uff11111111-1111-4111-8111-111111111111");
  await expect(notice).toContainText("Character 1 is a full-width '\uff11' (U+FF11); read as '1'.");
  await expect(notice).toContainText("Character 2 is a full-width '\uff11' (U+FF11); read as '1'.");
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
});

test("a look-alike letter or a dash is refused with the sentence naming it, without asking the server", async ({
  page,
}, testInfo) => {
  await page.goto("/purchases");
  const validations: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/purchases/validate") validations.push(request.method());
  });
  const field = page.getByLabel(/Purchase code/);

  await check(page, "11111111-1111-4111-8111-11111111111\u0430");
  await expect(field).toHaveAccessibleDescription(/Character 36 is a Cyrillic '\u0430' \(U\+0430\), not a Latin 'a'\./);
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(
    page.getByRole("status").filter({ hasText: /^The code was not checked\. Character 36 is a Cyrillic/ }),
  ).toBeAttached();
  await shot(page, testInfo, "purchase-lookalike-refused");

  await check(page, "11111111-1111\u20134111-8111-111111111111");
  await expect(field).toHaveAccessibleDescription(
    /Character 14 is an en dash '\u2013' \(U\+2013\), not a hyphen '-'\./,
  );

  await check(page, "1111 1111");
  await expect(field).toHaveAccessibleDescription(/Character 5 is a space; a purchase code has none\./);
  expect(validations).toEqual([]);

  // Corrected, the same field checks the code and the refusal goes.
  await check(page, ACTIVE);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await expect(field).not.toHaveAttribute("aria-invalid", "true");
  expect(validations).toEqual(["POST"]);
});

test("a result says how often the code was checked before, first when and by whom", async ({ page }) => {
  await page.goto("/purchases");
  // A code no other test checks: its first check is the first ever.
  const unknown = `e2e-history-${Date.now()}`;
  await check(page, unknown);
  await expect(page.getByRole("heading", { name: /This purchase code is not valid/ })).toBeVisible();
  await expect(page.getByText("First check of this code.")).toBeVisible();
  await check(page, unknown);
  await expect(page.getByText(/^Checked 1 time before, first on .+ by support@e2e\.test\.$/)).toBeVisible();

  // A valid code: other tests check it too, so the count is read, then must grow by one.
  await check(page, ACTIVE);
  const history = page.getByText(/^(First check of this code|Checked \d+ times? before)/);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  const before = Number((await history.textContent())?.match(/Checked (\d+)/)?.[1] ?? 0);
  await check(page, ACTIVE);
  const times = before + 1 === 1 ? "1 time" : `${before + 1} times`;
  await expect(history).toHaveText(new RegExp(`^Checked ${times} before, first on .+ by \\S+@e2e\\.test\\.$`));
});

test("keyboard only: the field has the focus when the page opens, a code is typed and checked", async ({ page }) => {
  await page.goto("/purchases");
  await expect(page.getByLabel(/Purchase code/)).toBeFocused();
  await page.keyboard.type(ACTIVE);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Check code" })).toBeFocused();
});

test("paste after paste: each code replaces the last, an e-mail is reduced to its code, two codes ask which", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const sent: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/purchases/validate")
      sent.push((request.postDataJSON() as { purchase_code: string }).purchase_code);
  });
  const paste = async (text: string) => {
    await page.evaluate((value) => navigator.clipboard.writeText(value), text);
    await page.keyboard.press("ControlOrMeta+V");
  };
  const field = page.getByLabel(/Purchase code/);
  const selection = () =>
    field.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd, input.value.length]);

  await page.goto("/purchases");
  await expect(field).toBeFocused();
  await paste(ACTIVE);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  // After the verdict the code is selected in the field, ready to be replaced.
  await expect(field).toBeFocused();
  expect(await selection()).toEqual([0, ACTIVE.length, ACTIVE.length]);

  // The agent clicks into the field and pastes the next code: it replaces the last one.
  await field.click();
  await paste(NO_SUPPORT);
  await expect(field).toHaveValue(NO_SUPPORT);
  await page.keyboard.press("Enter");
  await expect(page.locator("dd").filter({ hasText: /^None$/ })).toBeVisible();

  // Even with the caret moved inside the checked code, a paste replaces it rather than joining two codes.
  await field.press("Home");
  await field.press("ArrowRight");
  await paste(EXPIRED);
  await expect(field).toHaveValue(EXPIRED);

  // From anywhere on the page, `/` goes back to the field; Escape clears it.
  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("/");
  await expect(field).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(field).toHaveValue("");

  // A whole e-mail pasted: the field keeps only the code, and the page says so.
  await paste(`Hello,\n\nI bought your theme last week.\nPurchase code: ${EXPIRED.toUpperCase()}\n\nThanks, Jo`);
  await expect(field).toHaveValue(EXPIRED);
  await expect(page.getByTestId("found-code")).toContainText(`taken from the pasted text: ${EXPIRED}`);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /This purchase is real; its support has expired/ })).toBeVisible();

  // Two codes in one text: nothing is checked until one is chosen.
  await page.keyboard.press("Escape");
  await paste(`Old licence ${ACTIVE}, new licence ${NO_SUPPORT}`);
  const choices = page.getByRole("group", { name: /The text holds 2 purchase codes/ });
  await expect(choices.getByRole("button")).toHaveText([`Check ${ACTIVE}`, `Check ${NO_SUPPORT}`]);
  await choices.getByRole("button", { name: `Check ${NO_SUPPORT}` }).click();
  await expect(field).toHaveValue(NO_SUPPORT);
  await expect(page.locator("dd").filter({ hasText: /^None$/ })).toBeVisible();

  // Only whole codes ever reached the server: never two run together, never the e-mail.
  expect(sent).toEqual([ACTIVE, NO_SUPPORT, EXPIRED, NO_SUPPORT]);
});

test("the dashboard's quick box checks a code in place", async ({ page }) => {
  await page.goto("/");
  const box = page.getByRole("region", { name: "Check a purchase code" });
  await box.getByLabel(/Purchase code/).fill(EXPIRED);
  await box.getByRole("button", { name: "Check code" }).click();
  await expect(box.getByRole("heading", { name: /This purchase is real; its support has expired/ })).toBeVisible();
  await expect(box.locator("dd").filter({ hasText: /Expired\s+on \d/ })).toBeVisible();
});

// A seeded code with hex letters (its upper case is another string), as a marketplace issues them.
const LETTERS = "9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f";

test("every form a buyer pastes a UUID in is checked as the canonical code, and is valid", async ({ page }) => {
  await page.goto("/purchases");
  const sent: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/purchases/validate")
      sent.push(String(request.postDataJSON()?.purchase_code));
  });
  const forms = [
    LETTERS.toUpperCase(),
    LETTERS.replace(/-/g, ""),
    `{${LETTERS}}`,
    `"${LETTERS}"`,
    `urn:uuid:${LETTERS}`,
  ];
  for (const pasted of forms) {
    await check(page, pasted);
    const notice = page.getByRole("status").filter({ hasText: "cleaned before checking" });
    await expect(notice, pasted).toContainText(`Read as a UUID and sent in its usual form, ${LETTERS}`);
    await expect(notice, pasted).toContainText(`Code checked: ${LETTERS}`);
    await expect(page.getByRole("heading", { name: /This purchase code is valid/ }), pasted).toBeVisible();
  }
  // The browser sends what was typed; the server reads it by the same rule.
  expect(sent).toEqual(forms);
});

test("a look-alike refusal shows the corrected code, the changed characters marked, and one button checks it", async ({
  page,
}, testInfo) => {
  await page.goto("/purchases");
  // A Cyrillic 'а' at position 13 and an en dash at position 14.
  await check(page, `${LETTERS.slice(0, 12)}\u0430\u2013${LETTERS.slice(14)}`);
  const correction = page.getByTestId("correction");
  await expect(correction).toContainText(`Corrected, the code would be ${LETTERS}`);
  await expect(correction.locator("mark")).toHaveText(["a", "-"]);
  await shot(page, testInfo, "purchase-correct-and-check");
  await correction.getByRole("button", { name: "Check the corrected code" }).click();
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await expect(page.getByLabel(/Purchase code/)).toHaveValue(LETTERS);
  await expect(correction).toHaveCount(0);
});

test("the per-item view counts the last 30 days of checks, this check included without a reload", async ({ page }) => {
  await page.goto("/purchases");
  const table = page.getByRole("table", { name: "Purchase checks per item in the last 30 days" });
  const before = (await table.textContent()) ?? "";
  await check(page, LETTERS);
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  // A valid check adds one to its item's row (or adds the row): the panel under the verdict is fresh.
  await expect(table).not.toHaveText(before);
  await expect(table.getByRole("columnheader")).toHaveText([
    "Item",
    "Valid",
    "Valid, support expired",
    "Invalid",
    "History",
  ]);
  await expect(table.locator("tbody tr").first()).toBeVisible();
});
