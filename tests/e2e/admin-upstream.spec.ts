// The Upstream connections page in Chromium, on a portal of its own whose reports key is kept in the portal
// (REPORTS_API_BASE_URL set, REPORTS_API_KEY not, GATEHOUSE_KEK set): an admin tests a wrong key (the
// upstream's words under the field, nothing saved), tests and saves a working one, rotates to a second key the
// upstream has just issued, and undoes the rotation; the reports page works with whichever key is in use.
import { randomBytes } from "node:crypto";

import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

import { SANDBOX_KEYS } from "@/lib/sandbox";
import { freePort } from "@/tests/support/processes";

import { startPortal, waitUntilReady, type RunningPortal } from "@/tests/support/e2e/portal";
import { ADMIN } from "@/tests/support/e2e/settings";

import { expectPrimaryCellsInView, PHONE } from "./list-phone";

const NEXT_KEY = "e2e-reports-key-rotated-4242";
let portal: RunningPortal;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  portal = await startPortal({
    port: await freePort(),
    sandboxPort: await freePort(),
    env: { REPORTS_API_KEY: "", GATEHOUSE_KEK: randomBytes(32).toString("base64") },
  });
  await waitUntilReady(portal);
  const issued = await fetch(`${portal.sandbox.url}/__sandbox/keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ area: "reports", key: NEXT_KEY, accept: true }),
  });
  expect(issued.status).toBe(204);
});
test.afterAll(async () => {
  await portal?.stop();
});

async function signIn(page: Page): Promise<void> {
  const response = await page.request.post(`${portal.url}/api/auth/login`, {
    headers: { "X-CSRF": "1" },
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  expect(response.status()).toBe(200);
}

test("test, save, rotate and undo a key on the Upstream connections page", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  await page.goto(`${portal.url}/admin/upstream`);
  const reports = page.getByRole("region", { name: "The reports API (area A)" });
  await expect(reports).toContainText("None yet: set one below");

  // A wrong key: the upstream's words under the field, nothing saved.
  await reports.getByLabel("Key (required)", { exact: true }).fill("a-key-nobody-issued");
  await reports.getByRole("button", { name: "Test" }).click();
  await expect(
    reports.getByText("The reports API (area A) refused this key: “Unauthenticated.” (HTTP 401). Nothing was saved."),
  ).toBeVisible();

  // Test, then save the sandbox's key.
  await reports.getByLabel("Key (required)", { exact: true }).fill(SANDBOX_KEYS.reports);
  await reports.getByRole("button", { name: "Test" }).click();
  await expect(reports.getByRole("status").filter({ hasText: "The upstream accepted the key" })).toBeVisible();
  await reports.getByRole("button", { name: "Save and switch" }).click();
  await expect(page.getByText(/^Saved: the reports API \(area A\) now uses the key [0-9a-f]{8}\.$/)).toBeVisible();
  await expect(reports).toContainText("This portal, sealed");
  await expect(reports.getByRole("row").filter({ hasText: "In use" })).toContainText("ends in -key");

  // Rotate to the key the upstream has just issued.
  await reports.getByLabel("New key (rotate) (required)", { exact: true }).fill(NEXT_KEY);
  await reports.getByRole("button", { name: "Save and switch" }).click();
  await expect(reports.getByRole("row").filter({ hasText: "In use" })).toContainText("ends in 4242");
  await expect(reports.getByRole("row").filter({ hasText: "Disabled" })).toContainText("ends in -key");
  await expect(page.getByText(SANDBOX_KEYS.reports)).toHaveCount(0);
  await expect(page.getByText(NEXT_KEY)).toHaveCount(0);

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // Undo: the earlier key is in use again, and the reports page works with it.
  await reports.getByRole("button", { name: /^Restore the key / }).click();
  await expect(page.getByText(/^Restored: the reports API \(area A\) uses the key [0-9a-f]{8} again\.$/)).toBeVisible();
  await expect(reports.getByRole("row").filter({ hasText: "In use" })).toContainText("ends in -key");

  // On a phone: the keys are cards led by the key and its state, and the health numbers fit the screen.
  await page.setViewportSize(PHONE);
  await expectPrimaryCellsInView(page, reports.getByRole("table"));
  await page.goto(`${portal.url}/reports`);
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: /northwind-coffee\.com/ }).first()).toBeVisible();
  await expect(page.getByText("could not be loaded")).toHaveCount(0);
});
