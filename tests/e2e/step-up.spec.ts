// The step-up in Chromium (issue 36), on a portal of its own whose reports key is kept in the portal: an admin whose
// last proof is more than STEP_UP_MINUTES old types a new key and presses Save; the portal asks "Confirm it is you"
// in place (focus in the dialog, no axe violation). Cancel leaves the form as it was (the key still typed, a sentence
// in the banner, focus back on Save); a wrong password is said in the dialog; the right one saves the key that was
// typed, as if nothing had happened.
import { createHash, randomBytes } from "node:crypto";

import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext } from "@playwright/test";
import { sealData, unsealData } from "iron-session";

import { STEP_UP_MINUTES } from "@/lib/contract/values";
import { SANDBOX_KEYS } from "@/lib/sandbox";
import { freePort } from "@/tests/support/processes";

import { startPortal, waitUntilReady, type RunningPortal } from "@/tests/support/e2e/portal";
import { ADMIN } from "@/tests/support/e2e/settings";

const SESSION_SECRET = randomBytes(32).toString("base64url");
let portal: RunningPortal;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  portal = await startPortal({
    port: await freePort(),
    sandboxPort: await freePort(),
    env: { REPORTS_API_KEY: "", GATEHOUSE_KEK: randomBytes(32).toString("base64"), SESSION_SECRET },
  });
  await waitUntilReady(portal);
});
test.afterAll(async () => {
  await portal?.stop();
});

/**
 * The browser's session, sealed again as if its sign-in (its last proof) was `minutes` ago. lib/auth/session.ts
 * cannot be imported here (server-only), so its seal is made with iron-session as it does: the secret's id is the
 * first 6 bytes of its SHA-256.
 */
async function ageSession(context: BrowserContext, minutes: number): Promise<void> {
  const password = { [String(createHash("sha256").update(SESSION_SECRET).digest().readUIntBE(0, 6))]: SESSION_SECRET };
  const cookie = (await context.cookies(portal.url)).find((c) => c.name === "gatehouse_session")!;
  const session = await unsealData<Record<string, number>>(cookie.value, { password });
  const then = Date.now() - minutes * 60_000;
  const value = await sealData({ ...session, issuedAt: then, verifiedAt: then }, { password, ttl: 3600 });
  await context.addCookies([{ ...cookie, value }]);
}

test("asks for a fresh proof before setting a key, in place, and keeps the form", async ({ page, context }) => {
  test.setTimeout(60_000);
  const signedIn = await page.request.post(`${portal.url}/api/auth/login`, {
    headers: { "X-CSRF": "1" },
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  expect(signedIn.status()).toBe(200);
  await ageSession(context, STEP_UP_MINUTES + 1);

  await page.goto(`${portal.url}/admin/upstream`);
  const reports = page.getByRole("region", { name: "The reports API (area A)" });
  const keyField = reports.getByLabel("Key (required)", { exact: true });
  const save = reports.getByRole("button", { name: "Save and switch" });
  await keyField.fill(SANDBOX_KEYS.reports);
  await save.click();

  // Asked in place: the dialog has the focus (its one way to confirm: the password), and the page behind is kept.
  const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
  await expect(dialog).toBeVisible();
  const password = dialog.getByLabel("Your password");
  await expect(password).toBeFocused();
  await expect(dialog).toContainText(`more than ${STEP_UP_MINUTES} minutes old`);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // Cancel: the form as it was, the key still typed, a sentence in its banner, focus back where it was.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(reports.getByRole("alert")).toContainText(
    "Nothing was sent: this needs you to confirm it is you first.",
  );
  await expect(keyField).toHaveValue(SANDBOX_KEYS.reports);
  await expect(save).toBeFocused();
  await expect(reports).toContainText("None yet: set one below");

  // Again: a wrong password is said in the dialog, which stays open; the right one saves what was typed.
  await save.click();
  await expect(dialog).toBeVisible();
  await password.fill("not the admin's password");
  await password.press("Enter");
  await expect(dialog.getByRole("alert")).toContainText("The password is wrong.");
  await expect(keyField).toHaveValue(SANDBOX_KEYS.reports);
  await password.fill(ADMIN.password);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Saved: the reports API \(area A\) now uses the key [0-9a-f]{8}\.$/)).toBeVisible();
  await expect(reports).toContainText("This portal, sealed");
  await expect(reports.getByRole("row").filter({ hasText: "In use" })).toContainText("ends in -key");
  await expect(reports.getByRole("alert")).toHaveCount(0);

  // Proven now: the next sensitive action within the minutes is not asked again (the browser's session, by the API).
  const token = await page.request.post(`${portal.url}/api/tokens`, {
    headers: { "X-CSRF": "1" },
    data: { name: "after the step-up", scopes: ["audit:read"], expires_in_days: 7 },
  });
  expect(token.status()).toBe(201);
});
