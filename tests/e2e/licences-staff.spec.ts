// Licence activations in Chromium, the staff's side: an admin turns an item's licence API on (a limit the gateway
// refuses said beside its field first) and sees the public key (base64, PEM) and the well-known URL; a support person
// checks a code two installed copies activated (through the public licence API), sees both under the verdict, and
// resets one, giving the reason the dialog asks for first. The item's policy is put back afterwards.
import type { APIRequestContext } from "@playwright/test";

import { DEFAULT_LICENCE_POLICY, LICENCE_KEYS_PATH } from "@/lib/contract/licences";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { seedSellers } from "@/lib/sandbox/seed";

import { as, expect, shot, test } from "@/tests/support/e2e/fixtures";

/** A code the main seller sold that no other spec checks. */
const CODE = [...seedSellers().main.purchases.keys()].filter(
  (code) => !(Object.values(FIXED_PURCHASE_CODES) as string[]).includes(code),
)[5]!;

const CSRF = { "X-CSRF": "1" };

/** The item the code was bought for, as the checker says. */
async function itemOf(api: APIRequestContext): Promise<{ id: number; name: string }> {
  const checked = await api.post("/api/purchases/validate", { headers: CSRF, data: { purchase_code: CODE } });
  expect(checked.status()).toBe(200);
  const { purchase } = (await checked.json()).data;
  return { id: purchase.item.id, name: purchase.item.name };
}

test.describe("as an admin", () => {
  test.use({ storageState: as("admin") });

  test.afterEach(async ({ page }) => {
    const item = await itemOf(page.request);
    const reset = await page.request.put(`/api/admin/licences/items/${item.id}`, {
      headers: CSRF,
      data: DEFAULT_LICENCE_POLICY,
    });
    expect(reset.status()).toBe(200);
  });

  test("turn an item's licence API on, and see the public key", async ({ page }, testInfo) => {
    const item = await itemOf(page.request);
    await page.goto("/admin/licences");
    await expect(page.getByRole("heading", { level: 1, name: "Licences" })).toBeVisible();

    await expect(page.getByTestId("licence-key-base64")).toHaveText(/^[A-Za-z0-9+/]{43}=$/);
    await expect(page.getByTestId("licence-key-pem")).toContainText("-----BEGIN PUBLIC KEY-----");
    await expect(page.getByTestId("licence-keys-url")).toHaveText(
      new RegExp(`${LICENCE_KEYS_PATH.replace(/\./g, "\\.")}$`),
    );
    await expect(page.getByRole("button", { name: "Copy the key in base64" })).toBeVisible();

    // One line per item, off by default; its form opens under it.
    const line = page.locator("summary").filter({ hasText: item.name });
    await expect(line).toContainText("Off");
    await line.click();
    const form = page.getByRole("form", { name: `Licence policy of ${item.name}` });
    const regular = form.getByLabel("Regular licence");
    await regular.fill("-1");
    await form.getByRole("button", { name: "Save policy" }).click();
    await expect(form.getByText("Must be 0 or more.")).toBeVisible();
    await expect(regular).toHaveAttribute("aria-invalid", "true");

    await form.getByLabel(/the licence API is on/).check();
    await regular.fill("2");
    await form.getByLabel("Domains that never count").fill("localhost\n*.test\nstaging.*");
    await form.getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByText(`Saved: the licence API answers for ${item.name}.`)).toBeVisible();
    await shot(page, testInfo, "licences-saved");

    await expect(line).toContainText("On");
    await expect(line).toContainText("Regular 2, Extended 5");

    await page.reload();
    await line.click();
    await expect(form.getByLabel(/the licence API is on/)).toBeChecked();
    await expect(form.getByLabel("Regular licence")).toHaveValue("2");
    await expect(form.getByText(/Last saved .* by admin@/)).toBeVisible();
  });
});

test.describe("as support", () => {
  test.use({ storageState: as("support") });

  test.beforeEach(async ({ playwright, baseURL }) => {
    const admin = await playwright.request.newContext({ baseURL, storageState: as("admin") });
    try {
      const item = await itemOf(admin);
      const enabled = await admin.put(`/api/admin/licences/items/${item.id}`, {
        headers: CSRF,
        data: { ...DEFAULT_LICENCE_POLICY, enabled: true, limits: { regular: 5, extended: 5 } },
      });
      expect(enabled.status()).toBe(200);
      // Two installed copies activate themselves, as a product does (no session: the code is the credential).
      for (const domain of ["first-shop.example.com", "second-shop.example.com"]) {
        const activated = await admin.post("/api/licences/activate", {
          data: { purchase_code: CODE, item_id: item.id, instance: { domain } },
        });
        expect(activated.status(), await activated.text()).toBe(200);
      }
    } finally {
      await admin.dispose();
    }
  });

  test.afterEach(async ({ playwright, baseURL }) => {
    const admin = await playwright.request.newContext({ baseURL, storageState: as("admin") });
    try {
      const reset = await admin.post("/api/licences/reset", {
        headers: CSRF,
        data: { purchase_code: CODE, reason: "End of the browser test" },
      });
      expect(reset.status()).toBe(200);
      const item = await itemOf(admin);
      expect(
        (
          await admin.put(`/api/admin/licences/items/${item.id}`, { headers: CSRF, data: DEFAULT_LICENCE_POLICY })
        ).status(),
      ).toBe(200);
    } finally {
      await admin.dispose();
    }
  });

  test("check a code, see its activations, and reset one with a reason", async ({ page }, testInfo) => {
    await page.goto("/purchases");
    await page.getByLabel(/Purchase code/).fill(CODE);
    await page.getByRole("button", { name: "Check code" }).click();
    await expect(
      page.getByRole("heading", { name: /This purchase code is valid|its support has expired/ }),
    ).toBeVisible();

    const section = page.getByRole("region", { name: "Licence activations" });
    const first = section.getByRole("row").filter({ hasText: "first-shop.example.com" });
    const second = section.getByRole("row").filter({ hasText: "second-shop.example.com" });
    await expect(first).toContainText("Active");
    await expect(second).toContainText("Active");
    await shot(page, testInfo, "licence-activations");

    await first.getByRole("button", { name: "Reset first-shop.example.com" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset first-shop.example.com?" });
    await expect(dialog).toBeVisible();
    // No reason: nothing is sent, the field says why.
    await dialog.getByRole("button", { name: "Reset", exact: true }).click();
    await expect(dialog.getByText("Say why, in a few words: it is kept in the audit log.")).toBeVisible();
    await dialog.getByLabel("Reason").fill("The buyer moved to a new domain");
    await dialog.getByRole("button", { name: "Reset", exact: true }).click();
    await expect(page.getByText("Reset first-shop.example.com: its place is free.")).toBeVisible();
    await expect(dialog).toBeHidden();

    await expect(first).toContainText("Deactivated");
    await expect(first).toContainText("by support@");
    await expect(second).toContainText("Active");
    await expect(second.getByRole("button", { name: "Reset second-shop.example.com" })).toBeVisible();
  });
});
