// Passkeys as a person uses them, in Chromium with a virtual authenticator of the DevTools protocol's WebAuthn
// domain (a platform authenticator that keeps discoverable credentials and verifies the user at once): register one
// on Account → Security, sign out, sign in with it alone; then a password followed by the passkey as the second
// step. The portal is opened at localhost, not 127.0.0.1: Chromium refuses WebAuthn at an IP address. Each test
// makes a person of its own (a passkey changes how he signs in).
import type { Browser, Page } from "@playwright/test";

import { as, expect, hydrated, seriousViolations, test } from "@/tests/support/e2e/fixtures";
import { PORTAL_URL } from "@/tests/support/e2e/settings";

const LOCAL = PORTAL_URL.replace("127.0.0.1", "localhost");
const CSRF = { "X-CSRF": "1" };

async function newPerson(browser: Browser, name: string): Promise<{ email: string; password: string; name: string }> {
  const admin = await browser.newContext({ storageState: as("admin") });
  const email = `passkey-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.test`;
  const password = "e2e-passkey-password-1";
  const added = await admin.request.post("/api/admin/users", {
    headers: CSRF,
    data: { email, name, role: "viewer", password },
  });
  expect(added.status(), await added.text()).toBe(201);
  await admin.close();
  return { email, password, name };
}

/** A virtual platform authenticator attached to the page (it lasts across the page's navigations). */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}

async function signInWithPassword(page: Page, person: { email: string; password: string }) {
  await page.goto(`${LOCAL}/login`);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function addPasskey(page: Page, name: string) {
  await page.goto(`${LOCAL}/account/security`);
  const section = page.getByRole("region", { name: "Passkeys" });
  const add = section.getByRole("button", { name: "Add a passkey" });
  // A click before hydration would post nothing: wait for React to own the button, as a person's second try would.
  await hydrated(add);
  await section.getByLabel("Passkey name").fill(name);
  await add.click();
  await expect(page.getByText(`Added the passkey ${name}.`)).toBeVisible();
  await expect(section.getByRole("rowheader", { name })).toBeVisible();
}

async function signOut(page: Page) {
  // A click before the page has hydrated does nothing: repeated until it takes effect (as in login.spec.ts).
  await expect(async () => {
    if (!/\/login$/.test(page.url())) await page.getByRole("button", { name: "Sign out" }).click({ timeout: 1000 });
    await expect(page).toHaveURL(/\/login$/, { timeout: 2000 });
  }).toPass();
}

test("register a passkey on Account → Security, sign out, and sign in with it alone", async ({ browser }) => {
  const person = await newPerson(browser, "Pia Passkey");
  const context = await browser.newContext();
  const page = await context.newPage();
  const authenticator = await virtualAuthenticator(page);

  await signInWithPassword(page, person);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await addPasskey(page, "Test laptop");
  const [credential] = await authenticator.credentials();
  expect(credential).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
  const row = page.getByRole("region", { name: "Passkeys" }).getByRole("row", { name: /Test laptop/ });
  await expect(row).toContainText("Never");

  await page.goto(`${LOCAL}/`);
  await signOut(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Your account" })).toContainText(person.name);

  // Its last use shows on the list now.
  await page.goto(`${LOCAL}/account/security`);
  await expect(
    page.getByRole("region", { name: "Passkeys" }).getByRole("row", { name: /Test laptop/ }),
  ).not.toContainText("Never");
  await context.close();
});

test("password, then the passkey as the second step", async ({ browser }) => {
  const person = await newPerson(browser, "Sol Second-Step");
  const context = await browser.newContext();
  const page = await context.newPage();
  await virtualAuthenticator(page);

  await signInWithPassword(page, person);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await addPasskey(page, "Desk");
  await page.goto(`${LOCAL}/`);
  await signOut(page);

  await signInWithPassword(page, person);
  await expect(page).toHaveURL(/\/login\/second-step/);
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it is you" })).toBeVisible();
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Your account" })).toContainText(person.name);
  await context.close();
});

test("rename a passkey, and remove one after a confirm", async ({ browser }) => {
  const person = await newPerson(browser, "Rae Rename");
  const context = await browser.newContext();
  const page = await context.newPage();
  const authenticator = await virtualAuthenticator(page);
  await signInWithPassword(page, person);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await addPasskey(page, "Laptop");
  expect(await seriousViolations(page)).toEqual([]);
  expect(await authenticator.credentials()).toHaveLength(1);
  const section = page.getByRole("region", { name: "Passkeys" });

  await section.getByRole("button", { name: "Rename Laptop" }).click();
  const rename = page.getByRole("dialog", { name: "Rename the passkey Laptop" });
  await rename.getByLabel("New name").fill("Work laptop");
  await rename.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Renamed to Work laptop.")).toBeVisible();
  await expect(section.getByRole("rowheader", { name: "Work laptop" })).toBeVisible();

  await section.getByRole("button", { name: "Remove Work laptop" }).click();
  const confirm = page.getByRole("dialog", { name: "Remove the passkey Work laptop?" });
  await expect(confirm).toContainText("no longer signs you in");
  await confirm.getByRole("button", { name: "Remove passkey" }).click();
  await expect(page.getByText("Removed the passkey Work laptop.")).toBeVisible();
  await expect(section.getByText("No passkeys yet")).toBeVisible();
  await context.close();
});
