// Signing in and out as a person does, and what a signed-out visitor gets.
import { ADMIN, SIGN_OUT_USER, USERS } from "@/tests/support/e2e/settings";
import { expect, shot, test } from "@/tests/support/e2e/fixtures";

test.describe("signed out", () => {
  test("a page sends the visitor to sign in, and back to that page afterwards", async ({ page }, testInfo) => {
    await page.goto("/reports?result=bad");
    await expect(page).toHaveURL(/\/login\?next=%2Freports%3Fresult%3Dbad$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in to Gatehouse" })).toBeVisible();
    await shot(page, testInfo, "login");

    await page.getByLabel("Email").fill(USERS.editor.email);
    await page.getByLabel("Password").fill(USERS.editor.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await expect(page).toHaveURL(/\/reports\?result=bad$/);
    await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
    const account = page.getByRole("region", { name: "Your account" });
    await expect(account).toContainText(USERS.editor.name);
    await expect(account).toContainText("Editor");
  });

  test("a wrong password or an empty field is named, and nothing is signed in", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("link", { name: "Email: Enter your email address." })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Not signed in" })).toContainText(
      "The email or the password is not right",
    );
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a crafted next= never leads to another site", async ({ page }) => {
    await page.goto("/login?next=//evil.example/steal");
    await page.getByLabel("Email").fill(USERS.viewer.email);
    await page.getByLabel("Password").fill(USERS.viewer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  });
});

test("signing out ends the session and returns to the sign-in page", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(SIGN_OUT_USER.email);
  await page.getByLabel("Password").fill(SIGN_OUT_USER.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

  // A click that lands before the page has hydrated does nothing (the button needs its script): under load the
  // heading shows well before that, so the click is repeated until it takes effect.
  await expect(async () => {
    if (!/\/login$/.test(page.url())) await page.getByRole("button", { name: "Sign out" }).click({ timeout: 1000 });
    await expect(page).toHaveURL(/\/login$/, { timeout: 2000 });
  }).toPass();
  await page.goto("/reports");
  await expect(page).toHaveURL(/\/login\?next=%2Freports$/);
});
