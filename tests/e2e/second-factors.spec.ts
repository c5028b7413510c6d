// The authenticator app and recovery codes as a person uses them, in Chromium: set up on Account → Security (the
// code computed here from the secret the page shows), then a sign-in with password + code, and with a recovery
// code that works once; and an admin the policy requires to enrol, sent to the security page until he has.
import { generate } from "otplib";

import { as, expect, test } from "@/tests/support/e2e/fixtures";
import { credentialsOf, PORTAL_URL } from "@/tests/support/e2e/settings";
import type { APIRequestContext, Page } from "@playwright/test";

const STEP_MS = 30_000;
const PASSWORD = "e2e-second-factor-password-1";
const codeOf = (secret: string, step: number) => generate({ secret, epoch: step * (STEP_MS / 1000) });

async function newPerson(admin: APIRequestContext, role: "viewer" | "admin"): Promise<string> {
  const email = `factor-${role}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.test`;
  const created = await admin.post("/api/admin/users", {
    headers: { "X-CSRF": "1" },
    data: { email, name: `Fay ${role}`, role, password: PASSWORD },
  });
  expect(created.status()).toBe(201);
  return email;
}

async function passwordStep(page: Page, email: string) {
  // Off the portal first: a portal page whose cookies go would send itself to the sign-in page (its requests
  // answered 401) while this navigation runs, and abort it.
  await page.goto("about:blank");
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Sets up the app on the security page; its secret and the step of the code used. */
async function setUpApp(page: Page): Promise<{ secret: string; step: number; codes: string[] }> {
  const section = page.getByRole("region", { name: "Authenticator app" });
  await expect(async () => {
    await section.getByRole("button", { name: "Set up authenticator app" }).click({ timeout: 1000 });
    await expect(section.getByTestId("totp-secret")).toBeVisible({ timeout: 2000 });
  }).toPass();
  await expect(section.getByRole("img", { name: "QR code of your authenticator secret" })).toBeVisible();
  const secret = (await section.getByTestId("totp-secret").textContent())!.trim();
  const step = Math.floor(Date.now() / STEP_MS);
  await section.getByLabel("Code from the app").fill(await codeOf(secret, step));
  await section.getByRole("button", { name: "Confirm" }).click();
  const list = section.getByTestId("recovery-codes");
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const codes = await list.getByRole("listitem").allTextContents();
  await section.getByRole("button", { name: "I have saved them" }).click();
  return { secret, step, codes };
}

test.describe("the authenticator app and recovery codes", () => {
  test("set up on Account → Security, then password + code signs in; a recovery code works once", async ({
    page,
    playwright,
  }) => {
    const admin = await playwright.request.newContext({ baseURL: PORTAL_URL, storageState: as("admin") });
    const email = await newPerson(admin, "viewer");

    await passwordStep(page, email);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await page.getByRole("navigation").getByRole("link", { name: "Security" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
    const { secret, step, codes } = await setUpApp(page);
    await expect(page.getByTestId("totp-enrolled")).toBeVisible();
    await expect(page.getByTestId("recovery-codes-left")).toContainText("10 recovery codes left");

    await passwordStep(page, email);
    await expect(page).toHaveURL(/\/login\/second-step/);
    await page.getByRole("textbox", { name: /Code from your authenticator app/ }).fill(await codeOf(secret, step + 1));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

    for (const attempt of ["first", "again"] as const) {
      await passwordStep(page, email);
      await page.getByRole("link", { name: "Lost your device? Use a recovery code" }).click();
      await page.getByRole("textbox", { name: /Recovery code/ }).fill(codes[0]!);
      await page.getByRole("button", { name: "Continue" }).click();
      if (attempt === "first") await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      else {
        await expect(page.getByRole("alert").filter({ hasText: "Not signed in" })).toBeVisible();
        await expect(page).toHaveURL(/\/login\/second-step/);
      }
    }
    await admin.dispose();
  });

  test("an admin the policy requires to enrol is sent to Account → Security, and nothing else opens until he has", async ({
    page,
    playwright,
  }) => {
    const admin = await playwright.request.newContext({ baseURL: PORTAL_URL, storageState: as("admin") });
    const email = await newPerson(admin, "admin");
    // Changing the policy is a sensitive action: the saved session may be older than STEP_UP_MINUTES by now.
    const confirmed = await admin.post("/api/auth/step-up", {
      headers: { "X-CSRF": "1" },
      data: { method: "password", password: credentialsOf("admin").password },
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
    const policy = (value: string) =>
      admin.put("/api/admin/sign-in-policy", { headers: { "X-CSRF": "1" }, data: { second_factor_policy: value } });
    expect((await policy("admins")).status()).toBe(200);
    try {
      await passwordStep(page, email);
      await expect(page).toHaveURL(/\/account\/security\?enrol=1&next=%2F$/);
      await expect(page.getByRole("alert").filter({ hasText: "Add a second factor to go on" })).toBeVisible();
      await page.goto("/reports");
      await expect(page).toHaveURL(/\/account\/security\?enrol=1&next=%2Freports$/);
      const refused = await page.request.get("/api/admin/users");
      expect(refused.status()).toBe(403);
      expect((await refused.json()).error.code).toBe("second_factor_required");

      await setUpApp(page);
      await expect(page).toHaveURL(/\/reports$/);
      await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
      expect((await page.request.get("/api/admin/users")).status()).toBe(200);
    } finally {
      expect((await policy("off")).status()).toBe(200);
      await admin.dispose();
    }
  });
});
