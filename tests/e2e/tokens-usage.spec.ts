// A token's own limits and its usage on the tokens page: someone makes a token with a per-minute limit and a
// monthly quota, a script uses it past the minute's limit, he changes its limits with "Limits", and the usage
// table shows the requests made, by operation and outcome; the page is axe-clean with the usage shown.
import { as, axeViolations, confirmedAgain, expect, shot, test } from "@/tests/support/e2e/fixtures";
import { PORTAL_URL } from "@/tests/support/e2e/settings";

test.use({ storageState: as("support") });

test("set a token's limits, see them hold, change them, and see its usage", async ({ page }, testInfo) => {
  // Making a token is a step-up action: the saved session may be older than its minutes.
  await confirmedAgain(page, "support");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/tokens");
  const form = page.getByRole("form", { name: "Make a token" });
  await form.getByLabel("Name").fill("quota script");
  await form.getByLabel("purchases:validate").check();
  await form.getByLabel("Expires").selectOption("7");
  await form.getByLabel("Requests a minute (optional)").fill("2");
  await form.getByLabel("Requests a month (optional)").fill("0");
  await form.getByRole("button", { name: "Make token" }).click();
  // Out of bounds: the field says so, and nothing is made.
  await expect(form.getByLabel("Requests a month (optional)")).toHaveAccessibleDescription(
    /Must be at least 1, or empty \(null\) for none/,
  );
  await form.getByLabel("Requests a month (optional)").fill("1000");
  await form.getByRole("button", { name: "Make token" }).click();
  const secret = (await page.getByTestId("token-secret").textContent())!;
  await page.getByRole("button", { name: "Done" }).click();

  // A script: two requests a minute pass, the third is refused with the limit named.
  const me = () => fetch(`${PORTAL_URL}/api/auth/me`, { headers: { Authorization: `Bearer ${secret}` } });
  const answers = [await me(), await me(), await me()];
  expect(answers.map((res) => res.status)).toEqual([200, 200, 429]);
  expect(answers[0]!.headers.get("gatehouse-quota-remaining")).toBe("999");
  const refusal = (await answers[2]!.json()) as { error: { code: string; message: string } };
  expect(refusal.error.code).toBe("rate_limited");
  expect(refusal.error.message).toContain("its own limit is 2 a minute");

  const row = page.getByRole("table", { name: "API tokens", exact: true }).getByRole("row", { name: /quota script/ });
  await page.reload();
  await expect(row).toContainText("2 a minute, 1,000 a month");

  // Limits: the minute's limit removed, the quota lowered.
  await row.getByRole("button", { name: "Limits of quota script of support@e2e.test" }).click();
  const limits = page.getByRole("form", { name: "Limits of quota script" });
  await expect(limits.getByLabel("Requests a minute")).toBeFocused();
  await limits.getByLabel("Requests a minute").fill("");
  await limits.getByLabel("Requests a month").fill("500");
  await limits.getByRole("button", { name: "Save limits" }).click();
  await expect(page.getByRole("status").filter({ hasText: "quota script: 500 a month." })).toBeVisible();
  await expect(row).toContainText("500 a month");
  expect((await me()).status).toBe(200);

  // The usage: each instance writes its counts every few seconds; the page shows them once it asks again.
  const usage = page.getByRole("table", { name: "Requests per token, day and operation" });
  const line = usage.getByRole("row", { name: /quota script/ });
  await expect(async () => {
    await page.reload();
    // Day, operation, then ok, refused, denied, limited, upstream error, error.
    await expect(line.getByRole("cell")).toHaveText([/^\d{4}-\d{2}-\d{2}$/, "me", "3", "0", "0", "1", "0", "0"], {
      timeout: 1_000,
    });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Who used each upstream's budget" })).toBeVisible();
  await shot(page, testInfo, "token-usage");
  expect(await axeViolations(page), "axe with the usage shown").toEqual([]);
});
