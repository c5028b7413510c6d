// A viewer sets what he is told of on Account → Notifications: the topics his role allows (no purchases, no keys),
// quiet hours and the weekly digest, read in UTC until he picks a zone (the page says so), a report topic narrowed to
// one project; saved, they are there after a reload and in the API's answer.
import { as, axeViolations, expect, test } from "@/tests/support/e2e/fixtures";

test.use({ storageState: as("viewer") });

test("choose topics, quiet hours and the digest; they stay saved", async ({ page }) => {
  await page.goto("/account/notifications");
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  await expect(page.getByText("quiet hours and the digest are read in")).toContainText("UTC");
  await expect(page.getByLabel("A purchase was revoked (a sale reversed)")).toHaveCount(0);
  await expect(page.getByLabel("An upstream rejected its key")).toHaveCount(0);

  await page.getByLabel("A page's result got worse, and stayed so").check();
  const narrowing = page.getByRole("group", { name: /^Which projects and rule for “A page's result got worse/ });
  await expect(narrowing.getByLabel("Every project")).toBeChecked();
  await narrowing.getByLabel("Only these projects").check();
  await narrowing.getByLabel("northwind-coffee.com").check();
  await page.getByLabel("Hold messages during quiet hours, and send them when they end").check();
  await page.getByLabel("Quiet from").fill("23:00");
  await page.getByLabel("Quiet until").fill("06:30");
  await page.getByLabel("Digest day").selectOption({ label: "Friday" });
  await page.getByLabel("Digest hour").selectOption({ label: "17:00" });
  await page.getByRole("button", { name: "Save notifications" }).click();
  await expect(page.getByText("Notifications saved.")).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("A page's result got worse, and stayed so")).toBeChecked();
  await expect(page.getByLabel("Quiet from")).toHaveValue("23:00");
  await expect(page.getByLabel("Quiet until")).toHaveValue("06:30");
  await expect(page.getByLabel("Digest day")).toHaveValue("5");
  const kept = page.getByRole("group", { name: /^Which projects and rule for “A page's result got worse/ });
  await expect(kept.getByLabel("Only these projects")).toBeChecked();
  await expect(kept.getByLabel("northwind-coffee.com")).toBeChecked();
  await expect(kept.getByLabel("acme-tools.io")).not.toBeChecked();
  await expect(kept.getByLabel("Alert rule")).toHaveValue("");
  expect(await axeViolations(page), "axe with a report topic narrowed").toEqual([]);
  const subscriptions = await page.request.get("/api/notifications/subscriptions");
  expect((await subscriptions.json()).data.subscriptions).toEqual([
    { topic: "report.regressed", project: "northwind-coffee.com", rule: null },
  ]);
  const answer = await page.request.get("/api/notifications/preferences");
  expect((await answer.json()).data).toMatchObject({
    quiet_hours: { start: "23:00", end: "06:30" },
    digest: { enabled: true, day: 5, hour: 17 },
  });
});
