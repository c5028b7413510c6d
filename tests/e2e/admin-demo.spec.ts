// The admin's two features in `npm run demo` (issue 31, item 10), on a demo server of its own: a webhook to the
// receiver the demo offers on loopback gets a test event, whose delivery the log shows with what the receiver
// answered; the demo's upstream keys are kept in the portal, so the admin rotates one. A refusal says a sentence
// with the field's label, never an operator's variable (item 11).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect, test } from "@playwright/test";

import { SANDBOX_KEYS } from "@/lib/sandbox";
import { demoServer, freePort, untilHealthy, type Spawned } from "@/tests/support/processes";

/** The demo's published password (lib/auth/users.ts, which a browser test cannot import: it is server-only). */
const DEMO_PASSWORD = "gatehouse-demo";

let cwd: string;
let demo: Spawned;
let url: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  cwd = await mkdtemp(path.join(tmpdir(), "gatehouse-e2e-demo-"));
  const port = await freePort();
  demo = demoServer(cwd, port, { SANDBOX_PORT: "0" });
  url = `http://127.0.0.1:${port}`;
  await untilHealthy(url, demo);
});
test.afterAll(async () => {
  await demo?.stop();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

test("a test event to the demo receiver, and a rotated demo key", async ({ page }) => {
  test.setTimeout(60_000);
  const signedIn = await page.request.post(`${url}/api/auth/login`, {
    headers: { "X-CSRF": "1" },
    data: { email: "admin@demo.test", password: DEMO_PASSWORD },
  });
  expect(signedIn.status()).toBe(200);

  await page.goto(`${url}/admin/webhooks`);
  const form = page.getByRole("form", { name: "Add an endpoint" });
  await form.getByLabel("URL").fill("http://example.com/hooks");
  await form.getByLabel("purchase.checked").check();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText(/^URL: Must start with https:\/\/\.$/)).toBeVisible();
  await expect(page.getByText(/WEBHOOK_ALLOW_PRIVATE|Invalid field/)).toHaveCount(0);

  await form.getByRole("button", { name: "Use the demo receiver" }).click();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByRole("button", { name: "Done" }).click();
  const card = page.getByRole("region", { name: /\/__receiver$/ });
  await card.getByRole("button", { name: "Send test event" }).click();
  const row = card.getByRole("row", { name: /webhook\.test/ });
  await expect(row).toContainText("Delivered");
  await expect(row).toContainText("Received webhook.test");

  await page.goto(`${url}/admin/upstream`);
  const reports = page.getByRole("region", { name: "The reports API (area A)" });
  await expect(reports).toContainText("This portal, sealed");
  await reports.getByLabel("New key (rotate) (required)", { exact: true }).fill(SANDBOX_KEYS.reportsNext);
  await reports.getByRole("button", { name: "Save and switch" }).click();
  await expect(reports.getByRole("row").filter({ hasText: "In use" })).toContainText("ends in next");
});
