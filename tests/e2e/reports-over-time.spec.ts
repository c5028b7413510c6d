// Reports over time in Chromium: a report's timeline with its change marked, the dashboard's trend with its table
// view (axe clean), two days of a project compared, a project's schedule set and a run shown, the bell and the
// alerts list (filters that apply at once, a project chosen from a list, each alert naming its report). The
// sandbox's control API drives the results; screenshots in light and dark at 1440 and 390 px.
import AxeBuilder from "@axe-core/playwright";

import { SANDBOX_KEYS } from "@/lib/sandbox";

import { as, checkBothThemes, expect, sandbox, shotsAtWidths, test } from "@/tests/support/e2e/fixtures";
import { SANDBOX_URL } from "@/tests/support/e2e/settings";

import { closeFiltersWithEscape, openFilters, PHONE } from "./list-phone";

test.use({ storageState: as("editor") });
test.afterEach(async () => sandbox.reset());

const REPORT = 5;
const DAY = 86_400_000;
const ago = (days: number) =>
  new Date(Math.floor((Date.now() - days * DAY) / 1000) * 1000).toISOString().replace(".000Z", "Z");

async function reportOf(id: number): Promise<{ url: string; project: string; result: string }> {
  const res = await fetch(`${SANDBOX_URL}/seo/api/v1/reports/${id}`, {
    headers: { Authorization: `Bearer ${SANDBOX_KEYS.reports}` },
  });
  return ((await res.json()) as { data: { url: string; project: string; result: string } }).data;
}

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

/** Waits until Gatehouse has recorded the report's result of that time (it writes just after the answer). */
async function recorded(page: import("@playwright/test").Page, generatedAt: string): Promise<void> {
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/reports/${REPORT}/history`);
      const { data } = (await res.json()) as { data: { entries: Array<{ generated_at: string }> } };
      return data.entries.some((entry) => entry.generated_at === new Date(generatedAt).toISOString());
    })
    .toBe(true);
}

/**
 * The report was good ten days ago and good just now, then drops to bad: a drop on the timeline, an alert, and
 * a worse report between those days. The browser tests share one store, so the times are newer than any earlier
 * test's.
 */
async function dropReport(page: import("@playwright/test").Page): Promise<void> {
  const now = Date.now();
  const [longAgo, good, bad] = [ago(10), iso(now), iso(now + 1000)];
  await sandbox.setResult(REPORT, { result: "good", generated_at: longAgo, when: "now" });
  await page.goto(`/reports/${REPORT}`);
  await recorded(page, longAgo);
  await sandbox.setResult(REPORT, { result: "good", generated_at: good, when: "now" });
  await page.reload();
  await recorded(page, good);
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(
    timeline.getByRole("list", { name: "Results, newest first" }).getByRole("listitem").first(),
  ).toContainText("Good");
  await sandbox.setResult(REPORT, { result: "bad", generated_at: bad });
  await page.getByRole("button", { name: "Regenerate results" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The result is now Bad." })).toBeVisible();
  await expect(timeline.getByRole("listitem").first()).toContainText("Worse: was Good");
}

test("a report's timeline marks the drop, and its link can be copied", async ({ page, context }, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await dropReport(page);
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(timeline).toContainText(/\d+ results recorded, \d+ changes?; kept 400 days\./);
  const share = page.getByRole("region", { name: "Share" });
  await share.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied." })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/reports/${REPORT}$`));
  await shotsAtWidths(page, testInfo, "report-timeline");
});

test("after Regenerate the timeline shows the page's result at once, even within the same second (issue 31, item 5)", async ({
  page,
}) => {
  const now = Date.now();
  const [good, bad] = [iso(now), iso(now + 1000)];
  await sandbox.setResult(REPORT, { result: "good", generated_at: good, when: "now" });
  await page.goto(`/reports/${REPORT}`);
  await recorded(page, good);
  await sandbox.setResult(REPORT, { result: "bad", generated_at: bad, when: "now" });
  await page.reload();
  const newest = page
    .getByRole("region", { name: "Timeline" })
    .getByRole("list", { name: "Results, newest first" })
    .getByRole("listitem")
    .first();
  await expect(newest).toContainText("Worse: was Good");
  // The sandbox's times have whole seconds: the regeneration answers Good with the generated_at the page holds.
  await sandbox.setResult(REPORT, { result: "good", generated_at: bad });
  await page.getByRole("button", { name: "Regenerate results" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The result is now Good." })).toBeVisible();
  // No reload: the newest entry is the regeneration's Good (the Bad it replaces came at the same time).
  await expect(newest).toContainText("Unchanged");
  await expect(newest).toContainText("regenerated");
  await expect(newest).not.toContainText("Bad");
});

test("the dashboard's trend has a table view and a range; axe finds nothing serious in either theme", async ({
  page,
}, testInfo) => {
  await dropReport(page);
  await page.goto("/");
  const trends = page.getByRole("region", { name: "Results over time" });
  await expect(trends.getByText(/results recorded from/)).toBeVisible();
  await trends.getByRole("button", { name: "Show as table" }).click();
  await expect(trends.getByRole("button", { name: "Show as chart" })).toHaveAttribute("aria-pressed", "true");
  const table = trends.getByRole("table", { name: /All projects, the last 30 days, by day/ });
  await expect(table).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(30);
  await checkBothThemes(page, testInfo, "dashboard-trend-table");

  await trends.getByRole("link", { name: "90 days" }).click();
  await expect(page).toHaveURL(/\/\?days=90$/);
  await expect(trends.getByRole("link", { name: "90 days" })).toHaveAttribute("aria-current", "page");
  // The mix sorts by any column.
  const mix = trends.getByRole("table", { name: "Reports per project, by their newest result" });
  await mix.getByRole("button", { name: "Project" }).click();
  await expect(mix.getByRole("columnheader", { name: /Project/ })).toHaveAttribute("aria-sort", "ascending");
  // Other tests add projects of their own: the order is checked, not a name.
  const names = await mix.locator("tbody tr").getByRole("rowheader").allTextContents();
  const byName = (a: string, b: string) =>
    a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
  expect(names).toEqual([...names].sort(byName));
  expect(names).toContain("acme-tools.io");
  await trends.getByRole("button", { name: "Show as chart" }).click();
  await expect(trends.getByRole("button", { name: "Show as table" })).toHaveAttribute("aria-pressed", "false");
  await shotsAtWidths(page, testInfo, "dashboard-trend");
});

test("a project's page compares two days, sets a schedule and shows its run", async ({ page }, testInfo) => {
  const { url, project } = await reportOf(REPORT);
  await dropReport(page);
  // Two of the project's reports have one URL (seeded): each gets a new result that Gatehouse records, so both
  // land in one list of the compare (New, or Worse/Better), which names the URL once.
  const twins = [44, 70];
  const twin = (await reportOf(twins[0]!)).url;
  for (const id of twins) {
    const { url: its, result } = await reportOf(id);
    expect(its).toBe(twin);
    await sandbox.setResult(id, { result: result === "bad" ? "good" : "bad", when: "now" });
    expect((await page.request.get(`/api/reports/${id}`)).status()).toBe(200);
  }
  await page.goto(`/projects/${encodeURIComponent(project)}/overview`);
  await expect(page.getByRole("heading", { level: 1, name: project })).toBeVisible();

  const compare = page.getByRole("region", { name: "Compare two days" });
  await compare.getByLabel("Earlier day").fill(ago(9).slice(0, 10));
  await compare.getByLabel("Later day").fill(ago(0).slice(0, 10));
  await compare.getByRole("button", { name: "Compare" }).click();
  const worse = compare.getByRole("heading", { name: /^Worse \(\d+\)$/ });
  await expect(worse).toBeVisible();
  await expect(compare.getByRole("link", { name: url })).toBeVisible();
  // Each list names a URL once; reports of the same URL are told apart by their ids under it.
  await expect(compare.getByText(twin, { exact: true })).toHaveCount(1);
  for (const id of twins) await expect(compare.getByRole("link", { name: `Report #${id} of ${twin}` })).toBeVisible();

  const schedule = page.getByRole("region", { name: "Scheduled regeneration" });
  await schedule.getByLabel("How often").selectOption("weekly");
  await schedule.getByLabel("On", { exact: true }).selectOption({ label: "Tuesday" });
  await schedule.getByLabel(/^At/).fill("07:15");
  await schedule.getByLabel("Time zone").fill("Europe/Berlin");
  await schedule.getByRole("button", { name: "Save schedule" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Schedule saved." })).toBeVisible();
  await expect(schedule.getByText(/^Next run:/)).toBeVisible();

  await schedule.getByLabel("Time zone").fill("Mars/Olympus");
  await schedule.getByRole("button", { name: "Save schedule" }).click();
  await expect(schedule.getByText(/Pick a time zone from the list/)).toBeVisible();

  await schedule.getByRole("button", { name: "Run now" }).click();
  const runs = schedule.getByRole("table", { name: "Latest runs, newest first" });
  await expect(runs.locator("tbody tr").first()).toContainText("Done");
  await expect(runs.locator("tbody tr").first()).toContainText(/Regenerated all \d+ reports\./);

  // On a phone the runs are whole (the last column was cut at 390 px), and no scroll area is out of the
  // keyboard's reach (axe: scrollable-region-focusable).
  await page.setViewportSize(PHONE);
  const outcome = runs
    .locator("tbody tr")
    .first()
    .getByText(/Regenerated all \d+ reports\./);
  await outcome.scrollIntoViewIfNeeded();
  const box = await outcome.boundingBox();
  expect(box && box.x + box.width, "the outcome's right edge, within the 390 px window").toBeLessThanOrEqual(
    PHONE.width,
  );
  const { violations } = await new AxeBuilder({ page }).withRules(["scrollable-region-focusable"]).analyze();
  expect(violations.flatMap((violation) => violation.nodes.map((node) => node.target.join(" ")))).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await shotsAtWidths(page, testInfo, "project-over-time");
});

test("the bell counts unread alerts; the list filters and acknowledges them", async ({ page }, testInfo) => {
  const { url } = await reportOf(REPORT);
  await dropReport(page);
  const bell = page.getByRole("link", { name: /^Alerts, / });
  await expect
    .poll(
      async () =>
        ((await (await page.request.get("/api/alerts/count")).json()) as { data: { unread: number } }).data.unread,
    )
    .toBeGreaterThan(0);
  await page.reload();
  await expect(bell).toHaveAccessibleName(/^Alerts, \d+ unread$/);
  const before = Number((await bell.getAttribute("aria-label"))!.match(/\d+/)![0]);
  await bell.click();
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  const item = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: url }) })
    .first();
  await expect(item).toContainText("Bad");
  // Each alert tells its report apart from others of the same URL: the report's id and when it was generated.
  await expect(item).toContainText(`Report #${REPORT}`);
  await expect(item).toContainText(/generated /);
  // The filters apply at once, as on every other list (no Filter button); the project is chosen, not typed.
  await expect(page.getByRole("button", { name: "Filter", exact: true })).toHaveCount(0);
  await page.getByLabel("Dropped to").selectOption("bad");
  await expect(page).toHaveURL(/to=bad/);
  const project = page.getByRole("combobox", { name: "Project" });
  await project.selectOption((await reportOf(REPORT)).project);
  await expect(page).toHaveURL(/project=.*to=bad|to=bad.*project=/);
  await expect(item).toBeVisible();
  await page.getByRole("link", { name: "Clear the filters" }).click();
  await expect(page).toHaveURL(/\/alerts$/);
  await page.getByLabel("Dropped to").selectOption("bad");
  await expect(page).toHaveURL(/to=bad/);
  await checkBothThemes(page, testInfo, "alerts");
  await shotsAtWidths(page, testInfo, "alerts");
  await page
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: url }) })
    .first()
    .getByRole("button", { name: /^Acknowledge the alert/ })
    .click();
  const acknowledged = page.getByRole("status").filter({ hasText: "Alert acknowledged." });
  await expect(acknowledged).toBeVisible();
  await expect(bell).toHaveAccessibleName(before - 1 === 0 ? "Alerts, none unread" : `Alerts, ${before - 1} unread`);
  // Undo: the alert is unread again, and the bell counts it again.
  await acknowledged.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The alert is unread again." })).toBeVisible();
  await expect(bell).toHaveAccessibleName(`Alerts, ${before} unread`);
});

test("a project's overview opens from the projects list, for names with spaces and Unicode too", async ({ page }) => {
  await page.goto("/projects?search=shop");
  await page.getByRole("link", { name: "my shop: trends, compare, schedule and alerts" }).click();
  await expect(page).toHaveURL(/\/projects\/my%20shop\/overview$/);
  await expect(page.getByRole("heading", { level: 1, name: "my shop" })).toBeVisible();
  await page.goto(`/projects/${encodeURIComponent("café-münchen.de")}/overview`);
  await expect(page.getByRole("heading", { level: 1, name: "café-münchen.de" })).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("the alerts' filters wait behind Filters (N) and apply as they change", async ({ page }) => {
    await page.goto("/alerts?to=bad");
    await expect(page.getByLabel("Dropped to")).toBeHidden();
    const sheet = await openFilters(page, 1);
    await expect(sheet.getByLabel("Dropped to")).toHaveValue("bad");
    await sheet.getByLabel("Status").selectOption("all");
    await expect(page).toHaveURL(/status=all.*to=bad/);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("button", { name: "Filters (2)" })).toBeVisible();
    const again = await openFilters(page, 2);
    await expect(again.getByLabel("Status")).toHaveValue("all");
    await closeFiltersWithEscape(page, 2);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
      0,
    );
  });
});
