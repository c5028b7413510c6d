// Times in the person's own zone (issue 31, items 3 and 7), in a browser in Los Angeles while the tests' default is
// Berlin: "today", the history's filters and rows follow the browser's zone until the person picks one on the
// account page; a schedule's zone is picked by a city's name and its next run is shown in both zones. Assertions
// are on zone names and labels, never on a date that depends on when the test runs.
import { as, expect, shot, test } from "@/tests/support/e2e/fixtures";

const CSRF = { "X-CSRF": "1" };
const LOS_ANGELES = "America/Los_Angeles";

test.use({ timezoneId: LOS_ANGELES });

test.describe("support in Los Angeles", () => {
  test.use({ storageState: as("support") });
  // The zone is kept per person in the shared store: back to the browser's, whatever the test did.
  test.afterEach(async ({ page }) => {
    expect((await page.request.patch("/api/auth/me", { headers: CSRF, data: { time_zone: null } })).status()).toBe(200);
  });

  test("today, the history's filters and times follow the browser's zone, then the one picked", async ({
    page,
  }, testInfo) => {
    const checked = await page.request.post("/api/purchases/validate", {
      headers: CSRF,
      data: { purchase_code: "00000000-1111-4000-8000-000000000031" },
    });
    expect(checked.status()).toBe(200);

    await page.goto("/");
    await expect(page.getByText(`Since 00:00 (${LOS_ANGELES})`)).toBeVisible();

    await page.goto("/purchases/history");
    await expect(page.getByLabel(`From (${LOS_ANGELES})`)).toBeVisible();
    const rows = page.getByRole("table", { name: "Purchase checks" }).locator("tbody tr");
    // en-GB names Los Angeles' zone by its offset: GMT-8 in winter, GMT-7 in summer.
    await expect(rows.first()).toContainText(/GMT-[78]\b/);

    await page.goto("/account");
    const zone = page.getByRole("region", { name: "Your time zone" });
    await expect(zone.getByLabel("Time zone")).toHaveValue(LOS_ANGELES);
    await zone.getByLabel("Time zone").fill("Tokyo");
    await zone.getByRole("button", { name: "Save time zone" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Time zone saved: Asia/Tokyo." })).toBeVisible();
    await shot(page, testInfo, "account-time-zone");

    await page.goto("/purchases/history");
    await expect(page.getByLabel("From (Asia/Tokyo)")).toBeVisible();
    await expect(rows.first()).toContainText("GMT+9");
    await page.goto("/");
    await expect(page.getByText("Since 00:00 (Asia/Tokyo)")).toBeVisible();
  });
});

test.describe("editor in Los Angeles", () => {
  test.use({ storageState: as("editor") });
  const PROJECT = "pixelforge.studio";
  // The schedule is kept in the shared store: removed after the test, so that its form opens with the default.
  test.afterEach(async ({ page }) => {
    expect((await page.request.delete(`/api/projects/${PROJECT}/schedule`, { headers: CSRF })).status()).toBe(204);
  });

  test("a schedule's zone is picked by its city, and its next run is shown in both zones", async ({
    page,
  }, testInfo) => {
    // A project no other browser test schedules: its form opens with the default.
    await page.goto(`/projects/${PROJECT}/overview`);
    const schedule = page.getByRole("region", { name: "Scheduled regeneration" });
    const zone = schedule.getByLabel("Time zone");
    await expect(zone).toHaveValue(LOS_ANGELES);
    // The field suggests the zones (the browser filters them as one types), and "Berlin" alone is enough.
    await expect(page.locator(`datalist option[value="Europe/Berlin"]`)).toHaveCount(1);
    await zone.fill("Berlin");
    await schedule.getByLabel(/^At/).fill("09:00");
    await schedule.getByRole("button", { name: "Save schedule" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Schedule saved." })).toBeVisible();
    await expect(zone).toHaveValue("Europe/Berlin");
    const next = schedule.getByText(/^Next run:/);
    await expect(next).toContainText(/09:00 Europe\/Berlin/);
    await expect(next).toContainText(`${LOS_ANGELES}, your time zone`);
    await shot(page, testInfo, "schedule-in-berlin");
  });
});
