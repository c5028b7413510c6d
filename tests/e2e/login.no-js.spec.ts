// Signing in with JavaScript off (a slow network, a blocked script, a password manager submitting early): the
// form posts itself, the password never appears in a URL, and the page asked for opens signed in.
import { USERS } from "@/tests/support/e2e/settings";
import { expect, test } from "@/tests/support/e2e/fixtures";

test.use({ javaScriptEnabled: false });

test("signs in without JavaScript and lands on the page asked for; the password is in no URL", async ({ page }) => {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));

  await page.goto("/reports?result=good");
  await expect(page).toHaveURL(/\/login\?next=%2Freports%3Fresult%3Dgood$/);
  await page.getByLabel("Email").fill(USERS.viewer.email);
  await page.getByLabel("Password").fill(USERS.viewer.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page).toHaveURL(/\/reports\?result=good$/);
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Your account" })).toContainText(USERS.viewer.name);
  expect(urls.length).toBeGreaterThan(2);
  for (const url of urls) {
    expect(url).not.toContain(encodeURIComponent(USERS.viewer.password));
    expect(url).not.toContain("password=");
  }
});

test("a wrong password without JavaScript shows the sign-in page again, saying so", async ({ page }) => {
  await page.goto("/login?next=%2Fprojects");
  await page.getByLabel("Email").fill(USERS.viewer.email);
  await page.getByLabel("Password").fill("not the viewer's password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page).toHaveURL(/\/login\?error=invalid_credentials&next=%2Fprojects$/);
  await expect(page.getByRole("alert").filter({ hasText: "Not signed in" })).toContainText(
    "The email or the password is not right",
  );
  expect(page.url()).not.toContain("not%20the");
});
