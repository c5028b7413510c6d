// PURCHASE_CODE_FORMAT in the browser, each on a portal of its own: under uuid the form refuses a short code and a
// non-hex character with the words the server uses, before any request (the sandbox records no validation);
// under exact an upper-case code is sent as typed. The page is given the setting, so the form reads a code as the
// server does. (auto, the default, is tested in purchases.spec.ts on the shared portal.)
import { expect, test, type Page } from "@playwright/test";

import { freePort } from "@/tests/support/processes";

import { startPortal, waitUntilReady, type RunningPortal } from "@/tests/support/e2e/portal";
import { ADMIN } from "@/tests/support/e2e/settings";

const LETTERS = "9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f";
const VALIDATION_PATH = "/market/api/purchases/validation";

async function signIn(page: Page, portal: RunningPortal): Promise<void> {
  const response = await page.request.post(`${portal.url}/api/auth/login`, {
    headers: { "X-CSRF": "1" },
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  expect(response.status()).toBe(200);
}

/** The codes the portal asked the sandbox to validate. */
async function validations(portal: RunningPortal): Promise<string[]> {
  const response = await fetch(`${portal.sandbox.url}/__sandbox/requests`);
  const { requests: logged } = (await response.json()) as {
    requests: Array<{ path: string; form: Record<string, string> | null }>;
  };
  return logged
    .filter((request) => request.path === VALIDATION_PATH)
    .map((request) => String(request.form?.purchase_code));
}

async function check(page: Page, code: string) {
  await page.getByLabel(/Purchase code/).fill(code);
  await page.getByRole("button", { name: "Check code" }).click();
}

for (const format of ["uuid", "exact"] as const) {
  test.describe(`PURCHASE_CODE_FORMAT=${format}`, () => {
    let portal: RunningPortal;
    test.beforeAll(async () => {
      test.setTimeout(90_000);
      portal = await startPortal({
        port: await freePort(),
        sandboxPort: await freePort(),
        env: { PURCHASE_CODE_FORMAT: format },
      });
      await waitUntilReady(portal);
    });
    test.afterAll(async () => {
      await portal?.stop();
    });

    if (format === "uuid") {
      test("a short code and a non-hex character are refused in words, and nothing is sent", async ({ page }) => {
        await signIn(page, portal);
        await page.goto(`${portal.url}/purchases`);
        const sent: string[] = [];
        page.on("request", (request) => {
          if (new URL(request.url()).pathname === "/api/purchases/validate") sent.push(request.method());
        });
        const field = page.getByLabel(/Purchase code/);
        await check(page, LETTERS.slice(0, 35));
        await expect(field).toHaveAccessibleDescription(/35 characters; a purchase code has 36/);
        await check(page, `${LETTERS.slice(0, 8)}g${LETTERS.slice(9)}`);
        await expect(field).toHaveAccessibleDescription(/'g' at position 9 is not a hexadecimal digit/);
        expect(sent).toEqual([]);
        expect(await validations(portal)).toEqual([]);

        // The server holds the same rule for a client that skips the form.
        const direct = await page.request.post(`${portal.url}/api/purchases/validate`, {
          headers: { "X-CSRF": "1" },
          data: { purchase_code: LETTERS.slice(0, 35) },
        });
        expect(direct.status()).toBe(400);
        expect((await direct.json()).error.fields.purchase_code).toContain("35 characters; a purchase code has 36");
        expect(await validations(portal)).toEqual([]);

        // A UUID in any pasted form still goes through, canonical.
        await check(page, `{${LETTERS.toUpperCase()}}`);
        await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
        expect(await validations(portal)).toEqual([LETTERS]);
      });

      test("an almost-code is refused with its slip named, never sent, never counted as an invalid purchase", async ({
        page,
      }) => {
        const withO = `${LETTERS.slice(0, 26)}O${LETTERS.slice(27)}`;
        const slip = "letter O at position 27 — did you mean 0?";
        await signIn(page, portal);
        await page.goto(`${portal.url}/purchases`);
        // The sandbox's log holds the other tests' calls too: only the ones made from here on count.
        const earlier = (await validations(portal)).length;
        const sentSince = async () => (await validations(portal)).slice(earlier);
        await check(page, withO);
        await expect(page.getByLabel(/Purchase code/)).toHaveAccessibleDescription(/'O' at position 27/);
        await expect(page.getByTestId("slip")).toContainText(slip);
        expect(await sentSince()).toEqual([]);
        await page.getByTestId("slip").getByRole("button", { name: "Check the corrected code" }).click();
        await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
        expect(await sentSince()).toEqual([LETTERS]);

        // In bulk: refused at once, apart from the invalid purchases, its slip named.
        await page.goto(`${portal.url}/purchases/bulk`);
        await page.getByLabel(/Purchase codes/).fill([withO, LETTERS].join("\n"));
        await page.getByRole("button", { name: "Check 2 codes" }).click();
        const done = page.getByRole("status").filter({ hasText: /^Finished:/ });
        await expect(done).toHaveText("Finished: 1 valid, 0 invalid, 0 failed, 1 not a purchase code.", {
          timeout: 30_000,
        });
        const row = page.getByRole("row", { name: new RegExp(withO) });
        await expect(row).toContainText("Not a purchase code");
        await expect(row).toContainText(slip);
        expect(await sentSince()).toEqual([LETTERS, LETTERS]);
      });
    } else {
      test("an upper-case code is sent as typed", async ({ page }) => {
        await signIn(page, portal);
        await page.goto(`${portal.url}/purchases`);
        await check(page, LETTERS.toUpperCase());
        // The sandbox, like the marketplace, matches codes exactly: as typed, it is not a purchase it knows.
        await expect(page.getByRole("heading", { name: /This purchase code is not valid/ })).toBeVisible();
        await expect(page.getByRole("status").filter({ hasText: "cleaned before checking" })).toHaveCount(0);
        expect(await validations(portal)).toEqual([LETTERS.toUpperCase()]);
      });
    }
  });
}
