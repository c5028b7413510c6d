// An upstream that hangs shows each page's failure card with Try again — never "Gatehouse could not show this
// page" (the HTTP 500 the attack pass found). On a portal of its own: its first upstream use is an API call, as
// on a fresh server where someone's first click loads a list, and UPSTREAM_TIMEOUT_MS is short so the hang
// (10 s in production) costs a second here.
import { expect, test, type Page } from "@playwright/test";

import { PAGES_AFTER_A_TIMEOUT } from "@/tests/support/failure-pages";
import { freePort } from "@/tests/support/processes";

import { startPortal, waitUntilReady, type RunningPortal } from "@/tests/support/e2e/portal";
import { ADMIN } from "@/tests/support/e2e/settings";

let portal: RunningPortal;

async function sandboxControl(method: string, route: string, body?: unknown): Promise<void> {
  const response = await fetch(`${portal.sandbox.url}/__sandbox${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox control ${method} ${route}: ${response.status}`);
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  portal = await startPortal({
    port: await freePort(),
    sandboxPort: await freePort(),
    env: { UPSTREAM_TIMEOUT_MS: "1000" },
  });
  await waitUntilReady(portal);
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

test("a hung upstream: every page shows its failure card with Try again, and Try again recovers", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  expect((await page.request.get(`${portal.url}/api/reports`)).status()).toBe(200);
  await sandboxControl("POST", "/faults", { path: "/seo/*", kind: "hang" });
  await sandboxControl("POST", "/faults", { path: "/market/*", kind: "hang" });

  for (const [path, title, message] of PAGES_AFTER_A_TIMEOUT) {
    const response = await page.goto(`${portal.url}${path}`);
    expect(response?.status(), path).toBe(200);
    const card = page.getByRole("alert").filter({ hasText: title });
    await expect(card, path).toContainText(message);
    await expect(card.getByRole("button", { name: "Try again" }), path).toBeVisible();
    await expect(page.getByText("Gatehouse could not show this page")).toHaveCount(0);
  }

  await sandboxControl("DELETE", "/faults");
  await page.getByRole("alert").getByRole("button", { name: "Try again" }).click();
  await expect(page.getByText("Lena Hoffmann", { exact: true })).toBeVisible();
});
