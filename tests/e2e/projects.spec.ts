// Projects: search, sort, page size, each project's reports, and deleting a project with its reports.
import type { Page as ApiPage } from "@/lib/contract/common";
import type { Report } from "@/lib/contract/reports";
import { as, checkBothThemes, expect, sandbox, shot, test } from "@/tests/support/e2e/fixtures";

import { expectPrimaryCellsInView, PHONE } from "./list-phone";

test.use({ storageState: as("editor") });
test.afterEach(async () => sandbox.reset());

const rows = (page: import("@playwright/test").Page) => page.getByRole("table").locator("tbody tr");
const summary = (page: import("@playwright/test").Page) =>
  page.getByRole("navigation", { name: "Projects pages" }).getByText(/^Showing/);

test("search, sort by name and page size live in the URL; a project links to its reports", async ({
  page,
}, testInfo) => {
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

/** The upstream's own reports of a project (one page of 100 is all of them in the sandbox). */
async function reportsOf(page: import("@playwright/test").Page, project: string): Promise<ApiPage<Report>> {
  const answer = await page.request.get(`/api/reports?project=${encodeURIComponent(project)}&per_page=100`);
  expect(answer.status()).toBe(200);
  return answer.json();
}

test("deleting a project names how many reports go with it, from the upstream's count, and they do", async ({
  page,
}, testInfo) => {
  const { meta } = await reportsOf(page, "my shop");
  expect(meta.total).toBeGreaterThan(1);
  await page.goto("/projects?search=shop");
  await page.getByRole("button", { name: "Delete my shop" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete the project my shop and its ${meta.total} reports?` });
  await expect(dialog).toContainText(`its ${meta.total} reports go with it`);
  await shot(page, testInfo, "delete-project-dialog");
  await dialog.getByRole("button", { name: "Delete project and its reports" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Deleted the project my shop and its reports." }),
  ).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("shop.lumen-lighting.co.uk");

  await page.goto("/reports?project=my%20shop");
  await expect(page.getByRole("heading", { name: "No reports match" })).toBeVisible();
});

test("each project shows its number of reports and their mix of results, in words for screen readers", async ({
  page,
}, testInfo) => {
  // Gatehouse counts the reports it has seen: list the project's reports once, then wait for the record.
  const { data } = await reportsOf(page, "my shop");
  const count = (result: string) => data.filter((report) => report.result === result).length;
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get("/api/trends/projects")).json()).data as Array<{
            project: string;
            reports: number;
          }>
        ).find((mix) => mix.project === "my shop")?.reports,
    )
    .toBe(data.length);

  await page.goto("/projects?search=shop");
  const row = rows(page).filter({ has: page.getByRole("link", { name: "my shop: its reports" }) });
  await expect(row).toContainText(`${data.length} reports`);
  const words = (["good", "decent", "bad"] as const)
    .filter((result) => count(result) > 0)
    .map((result) => `${count(result)} ${result}`)
    .join(", ");
  await expect(row.getByRole("img", { name: words })).toBeVisible();
  await checkBothThemes(page, testInfo, "projects-mix");
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("each project is a card led by its name; the sort is a select", async ({ page }, testInfo) => {
    await page.goto("/projects");
    await expectPrimaryCellsInView(page);
    await expect(page.getByLabel("Sort")).toHaveValue("created_at:desc");
    await page.getByLabel("Sort").selectOption({ label: "Name ↑ ascending" });
    await expect(page).toHaveURL(/\/projects\?sort_by=project&sort=asc$/);
    await expect(rows(page).first().getByRole("rowheader")).toHaveText("acme-tools.io");
    await shot(page, testInfo, "projects-phone");
  });
});
