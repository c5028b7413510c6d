// Each role sees only what it may use; a viewer who calls the API anyway is refused.
import { as, expect, test } from "@/tests/support/e2e/fixtures";

const navLinks = async (page: import("@playwright/test").Page) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();

test.describe("viewer", () => {
  test.use({ storageState: as("viewer") });

  test("sees no way to change reports, and gets 403 from the API if he tries", async ({ page }) => {
    await page.goto("/reports");
    await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
    await expect(page.getByRole("link", { name: "New report" })).toHaveCount(0);
    expect(await navLinks(page)).toEqual([
      "Dashboard",
      "Reports",
      "Projects",
      "Items",
      "Seller account",
      "Notifications",
      "Security",
      "API tokens",
    ]);

    await page.goto("/reports/1");
    await expect(page.getByRole("heading", { level: 1, name: "Report #1" })).toBeVisible();
    await expect(page.getByRole("button", { name: /Delete/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Save privacy" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Regenerate results" })).toHaveCount(0);

    await page.goto("/projects");
    await expect(page.getByRole("button", { name: /Delete/ })).toHaveCount(0);

    // His own session cookie, the right CSRF header: still refused, and the report is still there.
    const refused = await page.request.delete("/api/reports/1", { headers: { "X-CSRF": "1" } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe("forbidden");
    const project = await page.request.delete("/api/projects/acme-tools.io", { headers: { "X-CSRF": "1" } });
    expect(project.status()).toBe(403);
    expect((await page.request.get("/api/reports/1")).status()).toBe(200);
  });

  test("a page his role may not open answers 403 with a page that says so", async ({ page }) => {
    const response = await page.goto("/reports/new");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "You may not open this page" })).toBeVisible();
  });
});

test.describe("support", () => {
  test.use({ storageState: as("support") });

  test("sees items and the purchase check, not reports", async ({ page }) => {
    await page.goto("/");
    expect(await navLinks(page)).toEqual([
      "Dashboard",
      "Items",
      "Check a code",
      "Bulk check",
      "History",
      "Support ending",
      "Seller account",
      "Notifications",
      "Security",
      "API tokens",
    ]);
    await expect(page.getByRole("region", { name: "Reports by result" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Check a purchase code" })).toBeVisible();
    const response = await page.goto("/reports");
    expect(response?.status()).toBe(403);
  });

  test("sees who the seller is on the account page, not his balance", async ({ page }) => {
    await page.goto("/account");
    const details = page.getByRole("region", { name: "Account details" });
    await expect(details.getByText("Username", { exact: true })).toBeVisible();
    await expect(details.getByText("Balance", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("main")).not.toContainText("$");
  });
});

test.describe("admin", () => {
  test.use({ storageState: as("admin") });

  test("sees every section", async ({ page }) => {
    await page.goto("/");
    expect(await navLinks(page)).toEqual([
      "Dashboard",
      "Reports",
      "Projects",
      "Items",
      "Check a code",
      "Bulk check",
      "History",
      "Support ending",
      "Seller account",
      "Notifications",
      "Security",
      "API tokens",
      "Users",
      "Audit log",
      "Webhooks",
      "Notification channels",
      "Upstream connections",
      "Helpdesk",
      "Purchase codes",
      "Licences",
    ]);
    await expect(page.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
  });
});
