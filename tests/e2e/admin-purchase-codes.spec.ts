// Admin → Purchase codes in Chromium: an admin saves the lifecycle's settings (a field the gateway refuses shown
// beside its field, then the sweep turned on for two items, kept after a reload), starts a sweep by hand, and sets
// an item's renewal link (http refused, https listed); a support person opens Purchases → Support ending from the
// navigation. The settings and the link are put back afterwards: other specs check codes on the same portal.
import { DEFAULT_LIFECYCLE_SETTINGS } from "@/lib/contract/purchase-lifecycle";

import { as, expect, shot, test } from "@/tests/support/e2e/fixtures";

test.describe("as an admin", () => {
  test.use({ storageState: as("admin") });

  test.afterEach(async ({ page }) => {
    const headers = { "X-CSRF": "1" };
    expect(
      (await page.request.put("/api/admin/purchase-lifecycle", { headers, data: DEFAULT_LIFECYCLE_SETTINGS })).status(),
    ).toBe(200);
    expect(
      (
        await page.request.put("/api/admin/purchase-lifecycle/items/100001", { headers, data: { renewal_url: null } })
      ).status(),
    ).toBe(200);
  });

  test("save the settings, run a sweep, set a renewal link", async ({ page }, testInfo) => {
    await page.goto("/admin/purchase-codes");
    await expect(page.getByRole("heading", { level: 1, name: "Purchase codes" })).toBeVisible();
    const settings = page.getByRole("form", { name: "Purchase code settings" });

    // Refused by the gateway: its sentence beside the field, nothing saved.
    const everyDays = settings.getByLabel("Re-check a code when its verdict is this many days old");
    await everyDays.fill("0");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect(settings.getByText("Must be at least 1 day.")).toBeVisible();
    await expect(everyDays).toHaveAttribute("aria-invalid", "true");

    await settings.getByLabel("Re-check valid codes on a schedule (the sweep)").check();
    await settings.getByLabel("Items").fill("100001, 100002");
    await everyDays.fill("10");
    await settings.getByLabel("Support ends soon within (days)").fill("21");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Saved the purchase code settings.")).toBeVisible();
    await expect(page.getByText(/On: valid codes of items 100001, 100002 are checked again/)).toBeVisible();
    await shot(page, testInfo, "purchase-codes-saved");

    await page.reload();
    await expect(settings.getByLabel("Re-check valid codes on a schedule (the sweep)")).toBeChecked();
    await expect(settings.getByLabel("Items")).toHaveValue("100001, 100002");
    await expect(settings.getByLabel("Support ends soon within (days)")).toHaveValue("21");
    await expect(settings.getByText(/Last saved .* by admin@/)).toBeVisible();

    await page.getByRole("button", { name: "Sweep now" }).click();
    await expect(page.getByText("The sweep is running; its checks appear in the history.")).toBeVisible();

    // The renewal link: https only.
    const links = page.getByRole("form", { name: "Set a renewal link" });
    await links.getByLabel("Item id").fill("100001");
    await links.getByLabel("Renewal link").fill("http://example.com/renew");
    await links.getByRole("button", { name: "Save link" }).click();
    await expect(links.getByText("Must be an https:// address.")).toBeVisible();
    await links.getByLabel("Renewal link").fill("https://example.com/renew/aurora");
    await links.getByRole("button", { name: "Save link" }).click();
    await expect(page.getByText("Set item 100001's renewal link.")).toBeVisible();
    const table = page.getByRole("table", { name: "Renewal links" });
    await expect(table.getByRole("row", { name: /100001/ })).toContainText("https://example.com/renew/aurora");
  });
});

test.describe("as support", () => {
  test.use({ storageState: as("support") });

  test("open Support ending from the navigation", async ({ page }) => {
    await page.goto("/purchases");
    await page.getByRole("link", { name: "Support ending" }).first().click();
    await expect(page).toHaveURL(/\/purchases\/support-ending$/);
    await expect(page.getByRole("heading", { level: 1, name: "Support ending" })).toBeVisible();
    await page.getByLabel("Support ends within (days)").fill("400");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/days=400/);
    await expect(page.getByText("Some of the list's settings were not understood; showing the defaults")).toBeVisible();
  });
});
