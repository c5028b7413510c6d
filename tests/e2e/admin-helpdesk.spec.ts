// Admin → Helpdesk in Chromium: an admin makes the Zendesk sidebar's token (purchases:check alone, shown once) and
// Help Scout's secret (shown once, the Callback URL beside it); Help Scout's signed request then gets its card, and
// the lookup is listed under Help Scout with its conversation. The card's "Open in Gatehouse" opens the checker with
// the conversation attached, and a check made there is kept with it in the history.
import { createHmac } from "node:crypto";

import { as, expect, shot, test } from "@/tests/support/e2e/fixtures";
import { credentialsOf, PORTAL_URL } from "@/tests/support/e2e/settings";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

test.use({ storageState: as("admin") });

test("make the Zendesk token and Help Scout's secret, see a Help Scout lookup listed, check a code for its conversation", async ({
  page,
}, testInfo) => {
  // A fresh sign-in: making a token asks for a fresh proof after STEP_UP_MINUTES (tests/e2e/step-up.spec.ts).
  const { email, password } = credentialsOf("admin");
  expect(
    (await page.request.post("/api/auth/login", { headers: { "X-CSRF": "1" }, data: { email, password } })).status(),
  ).toBe(200);
  await page.goto("/admin/helpdesk");
  await expect(page.getByRole("heading", { level: 1, name: "Helpdesk" })).toBeVisible();

  // Zendesk: the token, shown once.
  const zendesk = page.getByRole("region", { name: "Zendesk" });
  await zendesk.getByRole("button", { name: "Make the Zendesk token" }).click();
  const token = (await zendesk.getByTestId("token-secret").textContent())!;
  expect(token).toMatch(/^gth_/);
  await zendesk.getByRole("button", { name: "Done" }).click();
  await expect(zendesk.getByTestId("token-secret")).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);

  // Help Scout: the Callback URL and the secret, shown once.
  const helpScout = page.getByRole("region", { name: "Help Scout" });
  await expect(helpScout.getByTestId("helpscout-callback")).toHaveText(`${PORTAL_URL}/api/helpdesk/helpscout`);
  await helpScout.getByRole("button", { name: "Make the secret" }).click();
  const secret = (await helpScout.getByTestId("helpscout-secret").textContent())!;
  expect(secret).toMatch(/^[A-Za-z0-9_-]{40}$/);
  await expect(helpScout.getByText(/A secret is set, made/)).toBeVisible();
  await shot(page, testInfo, "helpscout-secret");
  await helpScout.getByRole("button", { name: "Done" }).click();

  // Help Scout asks, signed with it.
  const id = 700_000 + Math.floor(Math.random() * 99_999);
  // With the agent's email, as "checked by": other specs read who first checked this code.
  const body = JSON.stringify({
    ticket: { id, number: 12, subject: `Licence ${FIXED_PURCHASE_CODES.active}` },
    user: { id: 42, email: "agent@e2e.test" },
  });
  const res = await page.request.post("/api/helpdesk/helpscout", {
    headers: {
      "Content-Type": "application/json",
      "X-HelpScout-Signature": createHmac("sha1", secret).update(body).digest("base64"),
    },
    data: body,
  });
  expect(res.status()).toBe(200);
  const html = ((await res.json()) as { html: string }).html;
  expect(html).toContain("Code …1111");

  await page.reload();
  const lookups = page.getByRole("table", { name: "Help Scout's last lookups" });
  const row = lookups.getByRole("row", { name: new RegExp(`helpscout:${id}`) });
  await expect(row).toContainText("1111");
  await expect(row).toContainText("Valid");
  await expect(row.getByRole("link", { name: new RegExp(`helpscout:${id}`) })).toHaveAttribute(
    "href",
    `https://secure.helpscout.net/conversation/${id}`,
  );

  // "Open in Gatehouse": the checker with the conversation attached; its check is kept with it.
  const link = /href="([^"]+)">Open in Gatehouse/.exec(html)![1]!;
  await page.goto(link.replace(/&amp;/g, "&"));
  await expect(page.getByTestId("checker-ticket")).toHaveText(new RegExp(`For ticket helpscout:${id}`));
  await page.getByLabel(/Purchase code/).fill(FIXED_PURCHASE_CODES.none);
  await page.getByRole("button", { name: "Check code" }).click();
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  await page.goto(`/purchases/history?ticket=helpscout:${id}`);
  const checks = page.getByRole("table").first();
  await expect(checks.getByRole("row")).toHaveCount(3);
  await expect(checks).toContainText("Single check");
  await expect(checks).toContainText("Helpdesk lookup");

  // A bad ticket in the checker's address is ignored, not a crash.
  await page.goto("/purchases?ticket=nope:1");
  await expect(page.getByRole("heading", { level: 1, name: "Purchase check" })).toBeVisible();
  await expect(page.getByTestId("checker-ticket")).toHaveCount(0);
});
