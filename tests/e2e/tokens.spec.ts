// Someone makes an API token on the tokens page, copies it, uses it with curl (the line the page shows), and
// revokes it: the next curl is refused. An admin recovering an account sees its tokens among everyone's and
// revokes them with a password reset.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

import { as, confirmedAgain, expect, shot, test } from "@/tests/support/e2e/fixtures";
import { credentialsOf, PORTAL_URL } from "@/tests/support/e2e/settings";

import { expectPrimaryCellsInView, PHONE } from "./list-phone";

const run = promisify(execFile);

test.use({ storageState: as("support") });

test("make a token, copy it, use it with curl, revoke it", async ({ page, context }, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // A fresh sign-in: the saved session may be older than the minutes after which making a token asks for a fresh
  // proof (STEP_UP_MINUTES), depending on how long the run took to get here.
  const { email, password } = credentialsOf("support");
  expect(
    (await page.request.post("/api/auth/login", { headers: { "X-CSRF": "1" }, data: { email, password } })).status(),
  ).toBe(200);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/tokens");
  const form = page.getByRole("form", { name: "Make a token" });
  await form.getByLabel("Name").fill("helpdesk");
  await form.getByLabel("purchases:validate").check();
  await form.getByLabel("Expires").selectOption("7");
  await form.getByRole("button", { name: "Make token" }).click();

  // The secret shows where the person is looking, not below the fold, with Copy focused.
  await expect(page.getByTestId("token-secret")).toBeInViewport();
  await expect(page.getByTestId("token-curl")).toBeInViewport();
  await expect(page.getByRole("button", { name: "Copy" })).toBeFocused();
  const secret = (await page.getByTestId("token-secret").textContent())!;
  expect(secret).toMatch(/^gth_[0-9A-Za-z]{38}$/);
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await shot(page, testInfo, "new-token");

  // The page's own curl line, run as it is shown.
  const curl = (await page.getByTestId("token-curl").textContent())!;
  expect(curl).toContain(`Authorization: Bearer ${secret}`);
  const used = await run("sh", ["-c", `${curl} -s -w '\\n%{http_code}'`]);
  const [body, status] = used.stdout.trim().split("\n");
  expect(status).toBe("200");
  expect(JSON.parse(body!).data).toMatchObject({ via: "api_token", user: { email: "support@e2e.test" } });

  // The list shows its last use once the page asks again.
  await page.getByRole("button", { name: "Done" }).click();
  await page.reload();
  const row = page.getByRole("row", { name: /helpdesk/ }).first();
  await expect(row).toContainText("purchases:validate");
  await expect(row).toContainText("Active");
  await expect(row).not.toContainText("Never");

  await row.getByRole("button", { name: "Revoke helpdesk" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Revoked helpdesk" })).toBeVisible();
  await expect(row).toContainText("Revoked");

  const refused = await run("sh", ["-c", `${curl} -s -w '\\n%{http_code}'`]);
  const [refusal, refusedStatus] = refused.stdout.trim().split("\n");
  expect(refusedStatus).toBe("401");
  expect(JSON.parse(refusal!).error.code).toBe("token_revoked");

  // On a phone the token is a card led by its name and status; the list says its order.
  await page.setViewportSize(PHONE);
  await expectPrimaryCellsInView(page);
  // (The usage below says its own order too.)
  await expect(
    page.getByRole("region", { name: "Tokens list" }).getByText("Newest first", { exact: true }),
  ).toBeVisible();
  await shot(page, testInfo, "tokens-phone");
});

test.describe("an admin recovering an account", () => {
  test.use({ storageState: as("admin") });

  test("sees the person's token among everyone's, resets the password with 'revoke their API tokens' ticked, and the token is revoked", async ({
    page,
    playwright,
  }) => {
    const email = `recovered-${Date.now()}@e2e.test`;
    const password = "e2e-recovered-password-1";
    const created = await page.request.post("/api/admin/users", {
      headers: { "X-CSRF": "1" },
      data: { email, name: "Rita Recovered", role: "viewer", password },
    });
    expect(created.status()).toBe(201);
    // The person makes a token with a session of her own.
    const person = await playwright.request.newContext({ baseURL: PORTAL_URL });
    expect(
      (await person.post("/api/auth/login", { headers: { "X-CSRF": "1" }, data: { email, password } })).status(),
    ).toBe(200);
    const made = await person.post("/api/tokens", {
      headers: { "X-CSRF": "1" },
      data: { name: "rita's script", scopes: ["reports:read"], expires_in_days: 7 },
    });
    expect(made.status()).toBe(201);
    const secret = (await made.json()).data.secret as string;

    await page.goto("/tokens");
    const everyone = page.getByRole("region", { name: "Every person's tokens" });
    const row = everyone.getByRole("row", { name: /rita's script/ });
    await expect(row).toContainText(email);
    await expect(row).toContainText("Active");

    // Changing a user is a sensitive action: the saved session may be older than STEP_UP_MINUTES by now.
    await confirmedAgain(page, "admin");
    await page.goto("/admin/users");
    await page
      .getByRole("row", { name: new RegExp(email) })
      .getByRole("button", { name: "Edit Rita Recovered" })
      .click();
    const edit = page.getByRole("dialog", { name: "Edit Rita Recovered" });
    await edit.getByLabel("New password").fill("e2e-recovered-password-2");
    await expect(edit.getByLabel(/Revoke their API tokens too/)).toBeChecked();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved the changes to Rita Recovered." })).toBeVisible();

    await page.goto("/tokens");
    await expect(
      page.getByRole("region", { name: "Every person's tokens" }).getByRole("row", { name: /rita's script/ }),
    ).toContainText("Revoked");
    const refused = await person.get("/api/auth/me", { headers: { Authorization: `Bearer ${secret}` } });
    expect(refused.status()).toBe(401);
    await person.dispose();
  });
});
