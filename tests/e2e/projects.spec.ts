// Projects: search, sort, page size, each project's reports, and deleting a project with its reports.
import { as, expect, sandbox, shot, test } from "@/tests/support/e2e/fixtures";

test.use({ storageState: as("editor") });
test.afterEach(async () => sandbox.reset());

const rows = (page: import("@playwright/test").Page) => page.getByRole("table").locator("tbody tr");
const summary = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Projects pages" }).getByText(/^Showing/);

test("search, sort by name and page size live in the URL; a project links to its reports", async ({ page }, testInfo) => {
  await page.goto("/projects");
  await expect(summary(page)).toHaveText("Showing 1–10 of 13");
  await shot(page, testInfo, "projects");

  const nameHeader = page.getByRole("columnheader", { name: /Name/ });
  await nameHeader.getByRole("button").click();
  await expect(page).toHaveURL(/\/projects\?sort_by=project&sort=asc$/);
  await expect(rows(page).first().getByRole("rowheader")).toHaveText("acme-tools.io");
  await nameHeader.getByRole("button").click();
  await expect(rows(page).first().getByRole("rowheader")).toHaveText("shop.lumen-lighting.co.uk");

  await page.getByLabel("Rows per page").selectOption("25");
  await expect(page).toHaveURL(/\?sort_by=project&sort=desc&per_page=25$/);
  await expect(rows(page)).toHaveCount(13);

  await page.getByLabel("Search by name").fill("shop");
  await expect(page).toHaveURL(/\?search=shop&sort_by=project&sort=desc&per_page=25$/);
  await expect(rows(page)).toHaveCount(2);
  await page.reload();
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByLabel("Search by name")).toHaveValue("shop");

  await page.getByRole("link", { name: "my shop: its reports" }).click();
  await expect(page).toHaveURL(/\/reports\?project=my(%20|\+)shop$/);
  await expect(page.getByLabel("Project")).toHaveValue("my shop");
  await expect(page.getByRole("table").locator("tbody tr").first()).toContainText("my shop");
});

test("deleting a project says its reports go too, and they do", async ({ page }, testInfo) => {
  await page.goto("/projects?search=shop");
  await page.getByRole("button", { name: "Delete my shop" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete the project my shop?" });
  await expect(dialog).toContainText("all of its reports go with it");
  await shot(page, testInfo, "delete-project-dialog");
  await dialog.getByRole("button", { name: "Delete project and its reports" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Deleted the project my shop and its reports." })).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("shop.lumen-lighting.co.uk");

  await page.goto("/reports?project=my%20shop");
  await expect(page.getByRole("heading", { name: "No reports match" })).toBeVisible();
});
