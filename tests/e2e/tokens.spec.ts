// Someone makes an API token on the tokens page, copies it, uses it with curl (the line the page shows), and
// revokes it: the next curl is refused.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

import { as, expect, shot, test } from "@/tests/support/e2e/fixtures";
import { credentialsOf } from "@/tests/support/e2e/settings";

import { expectPrimaryCellsInView, PHONE } from "./list-phone";

const run = promisify(execFile);

test.use({ storageState: as("support") });

test("make a token, copy it, use it with curl, revoke it", async ({ page, context }, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // A fresh sign-in: the saved session may be older than the minutes after which making a token asks for the
  // password (RECENT_SIGN_IN_MINUTES), depending on how long the run took to get here.
  const { email, password } = credentialsOf("support");
  expect((await page.request.post("/api/auth/login", { headers: { "X-CSRF": "1" }, data: { email, password } })).status()).toBe(200);
  await page.goto("/tokens");
  const form = page.getByRole("form", { name: "Make a token" });
  await form.getByLabel("Name").fill("helpdesk");
  await form.getByLabel("purchases:validate").check();
  await form.getByLabel("Expires").selectOption("7");
  await form.getByRole("button", { name: "Make token" }).click();

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
  await expect(page.getByText("Newest first", { exact: true })).toBeVisible();
  await shot(page, testInfo, "tokens-phone");
});
