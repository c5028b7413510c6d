// An admin adds a user, changes his role, and finds both in the audit log.
import { as, confirmedAgain, expect, shot, test } from "@/tests/support/e2e/fixtures";

import { expectPrimaryCellsInView, PHONE } from "./list-phone";

test.use({ storageState: as("admin") });
test.beforeEach(({ page }) => confirmedAgain(page, "admin"));

test("add a user, change his role, and see it in the audit log", async ({ page }, testInfo) => {
  const email = `new-${Date.now()}@e2e.test`;
  await page.goto("/admin/users");
  await shot(page, testInfo, "users");
  await page.getByRole("button", { name: "Add user" }).click();
  const add = page.getByRole("dialog", { name: "Add a user" });
  await add.getByLabel(/Email/).fill(email);
  await add.getByLabel(/Name/).fill("Nora New");
  await add.getByLabel("Role").selectOption("viewer");
  await add.getByLabel(/Password/).fill("short");
  await add.getByRole("button", { name: "Add user" }).click();
  await expect(add.getByLabel(/Password/)).toHaveAttribute("aria-invalid", "true");
  await add.getByLabel(/Password/).fill("a-long-enough-password");
  await add.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Added Nora New (${email}) as Viewer.` })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(email) });
  await expect(row).toContainText("Viewer");

  await row.getByRole("button", { name: "Edit Nora New" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Nora New" });
  await edit.getByLabel("Role").selectOption("editor");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved the changes to Nora New." })).toBeVisible();
  await expect(row).toContainText("Editor");

  // Disabling is one click from undone: the toast's Undo lets him sign in again.
  await row.getByRole("button", { name: "Edit Nora New" }).click();
  await edit.getByLabel("Disabled (cannot sign in)").check();
  await edit.getByRole("button", { name: "Save changes" }).click();
  const disabled = page.getByRole("status").filter({ hasText: "Disabled Nora New: they cannot sign in." });
  await expect(row).toContainText("Disabled");
  await disabled.getByRole("button", { name: "Undo" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Nora New can sign in again; their API tokens stay revoked." }),
  ).toBeVisible();
  await expect(row).not.toContainText("Disabled");

  await page.goto("/admin/audit");
  await page.getByLabel("Action").selectOption({ label: "User changed" });
  await expect(page).toHaveURL(/\/admin\/audit\?action=user\.update$/);
  await expect(page.getByRole("table").locator("tbody tr").first()).toContainText("User changed");
  await shot(page, testInfo, "audit");
});

test("the last admin cannot take away his own admin role", async ({ page }) => {
  await page.goto("/admin/users");
  await page
    .getByRole("row", { name: /admin@e2e\.test/ })
    .getByRole("button", { name: /^Edit / })
    .click();
  const edit = page.getByRole("dialog", { name: /^Edit / });
  await edit.getByLabel("Role").selectOption("viewer");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByRole("alert")).toContainText("Nothing was saved");
  await edit.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("row", { name: /admin@e2e\.test/ })).toContainText("Admin");
});

test("a service account's edit form offers no password: it has none", async ({ page }) => {
  const email = `bot-${Date.now()}@e2e.test`;
  await page.goto("/admin/users");
  await page.getByRole("button", { name: "Add user" }).click();
  const add = page.getByRole("dialog", { name: "Add a user" });
  await add.getByLabel(/Email/).fill(email);
  await add.getByLabel(/Name/).fill("Ledger Bot");
  await add.getByLabel("Role").selectOption("support");
  await add.getByLabel(/Service account/).check();
  await add.getByRole("button", { name: "Add user" }).click();
  const row = page.getByRole("row", { name: new RegExp(email) });
  await row.getByRole("button", { name: "Edit Ledger Bot" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Ledger Bot" });
  await expect(edit.getByLabel("Role")).toBeVisible();
  await expect(edit.getByLabel("New password")).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("each user is a card led by the name and access; the order is said", async ({ page }, testInfo) => {
    await page.goto("/admin/users");
    await expectPrimaryCellsInView(page);
    await expect(page.getByText("A to Z", { exact: true })).toBeVisible();
    // The sign-in cell's second line sits in the value column, under its first, not under the "Sign-in" label
    // (which takes the first 5.5 rem of the card's line).
    const cell = page.locator('td[data-label="Sign-in"]').first();
    const [box, when] = await Promise.all([
      cell.boundingBox(),
      cell.getByText(/^(signed in|not signed in yet)/).boundingBox(),
    ]);
    expect(
      box && when && when.x - box.x,
      "the second line's offset from the card's left edge, px",
    ).toBeGreaterThanOrEqual(88);
    await shot(page, testInfo, "users-phone");
  });
});
