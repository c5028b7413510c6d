// Single sign-on in Chromium, the real redirect flow: a real OpenID provider (oidc-provider, in this process) and
// a portal of its own (next start) on free loopback ports, started here. The portal runs with PASSWORD_LOGIN=off
// (its first admin is the break-glass admin) and re-checks SSO sessions every 0.02 minutes (1.2 s), so a test
// that removes a group waits for the page to change, not for an hour.
import { expect, test, type Browser, type Page } from "@playwright/test";

import { freePort } from "@/tests/support/processes";
import {
  ADMIN_GROUP,
  IDP_USERS,
  ssoEnv,
  startTestProvider,
  UNMAPPED_GROUP,
  type TestIdpUser,
  type TestProvider,
} from "@/tests/support/oidc-provider";

import { checkBothThemes, shot } from "@/tests/support/e2e/fixtures";
import { startPortal, waitUntilReady, type RunningPortal } from "@/tests/support/e2e/portal";
import { ADMIN } from "@/tests/support/e2e/settings";

let idp: TestProvider;
let portal: RunningPortal;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  idp = await startTestProvider({
    redirectUris: [`${url}/api/auth/oidc/callback`],
    postLogoutRedirectUris: [`${url}/login`],
  });
  portal = await startPortal({
    port,
    sandboxPort: await freePort(),
    // The portal's own sandbox stands in for the upstreams: only the single sign-on settings are taken.
    env: Object.fromEntries(
      Object.entries(ssoEnv(idp, { OIDC_RECHECK_MINUTES: "0.02", PASSWORD_LOGIN: "off" })).filter(
        (entry): entry is [string, string] => entry[0].startsWith("OIDC_") || entry[0] === "PASSWORD_LOGIN",
      ),
    ),
  });
  await waitUntilReady(portal);
});
test.afterAll(async () => {
  await portal?.stop();
  await idp?.close();
});

let people = 0;
/** A new person at the provider, for one test. */
function person(groups: string[]): TestIdpUser {
  people += 1;
  const user = {
    sub: `e2e-sso-${people}-${Date.now()}`,
    login: `e2e${people}`,
    password: `password of e2e person ${people}`,
    email: `e2e${people}.${Date.now()}@corp.test`,
    name: `Pat Person${people}`,
    groups,
  };
  idp.addUser(user);
  return user;
}

/** From the portal's sign-in page through the provider's pages, as a person does it. */
async function signInWithProvider(
  page: Page,
  who: Pick<TestIdpUser, "login" | "password">,
  { next = "/", consent = "Allow" } = {},
): Promise<void> {
  await page.goto(`${portal.url}/login?next=${encodeURIComponent(next)}`);
  await page.getByRole("link", { name: "Sign in with Test IdP" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the Test IdP" })).toBeVisible();
  await page.getByLabel("Username").fill(who.login);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Allow Gatehouse to use your account?" })).toBeVisible();
  await page.getByRole("button", { name: consent }).click();
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test("a user in the admin group becomes admin; the users page shows where he signs in", async ({ page }, testInfo) => {
  const started = Date.now();
  await signInWithProvider(page, IDP_USERS.admin, { next: "/admin/users" });
  await expect(page).toHaveURL(`${portal.url}/admin/users`);
  testInfo.annotations.push({
    type: "sso round trip",
    description: `${Date.now() - started} ms from the sign-in page to the users page, through the provider's two pages`,
  });
  const account = page.getByRole("region", { name: "Your account" });
  await expect(account).toContainText("Ada Lovelace");
  await expect(account).toContainText("Admin");
  const row = page.getByRole("row", { name: /ada@corp\.test/ });
  await expect(row).toContainText("Test IdP");
  await expect(row).toContainText("signed in ");
  await shot(page, testInfo, "users-with-sso");

  // Another SSO user: an admin pins the role he sets by hand.
  const other = person(["portal-editors"]);
  const second = await newPage(page.context().browser()!);
  await signInWithProvider(second, other);
  await expect(second.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await page.reload();
  const otherRow = page.getByRole("row", { name: new RegExp(other.email.replace(/\./g, "\\.")) });
  await expect(otherRow).toContainText("Editor");
  await otherRow.getByRole("button", { name: `Edit ${other.name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${other.name}` });
  await expect(edit.getByLabel("New password")).toHaveCount(0);
  await expect(edit.getByRole("radio", { name: /From the Test IdP groups/ })).toBeChecked();
  await edit.getByLabel("Role").selectOption("support");
  await expect(edit.getByRole("radio", { name: "Pinned: kept as set here" })).toBeChecked();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(otherRow).toContainText("Support pinned");
});

test("a user in no mapped group is refused with a page that names the claim read", async ({ page }, testInfo) => {
  await signInWithProvider(page, IDP_USERS.outsider, { next: "/reports" });
  await expect(page).toHaveURL(`${portal.url}/login?error=sso_no_role&next=%2Freports`);
  await expect(page.getByRole("heading", { level: 1, name: "No access to Gatehouse" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Not signed in" })).toContainText(
    'You signed in with Test IdP, but none of your groups gives you a role in Gatehouse: it read the claim "groups"',
  );
  await expect(page.getByRole("link", { name: "Sign in with another Test IdP account" })).toBeVisible();
  await checkBothThemes(page, testInfo, "sso-no-role");
});

// Whichever request finds the removal first — the reload's page, or the page's own API call (the alert bell's count,
// whose 401 sends the browser to /login?next=…) — the browser goes through the provider, which says why.
test("removed from the group, the next re-check ends his access: the page goes through the provider, which says why", async ({
  page,
}) => {
  const who = person([ADMIN_GROUP]);
  await signInWithProvider(page, who);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  idp.setGroups(who.login, [UNMAPPED_GROUP]);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "No access to Gatehouse" })).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/login\?error=sso_no_role/);
  // His session is over: any page goes through the provider again, and ends on the same refusal.
  await page.goto(`${portal.url}/reports`);
  await expect(page).toHaveURL(`${portal.url}/login?error=sso_no_role&next=%2Freports`);
});

test("a tampered state and a replayed code are refused, each with one sentence", async ({ page, browser }) => {
  // Stop before the callback, as an attacker in the middle would: the provider shows where it would send the browser
  // (the callback, with code and state) instead of sending it, and the browser keeps its sign-in cookie.
  idp.holdCallbacks(true);
  let callback: string;
  try {
    await signInWithProvider(page, person([ADMIN_GROUP]));
    callback = (await page.getByRole("link", { name: "Continue to the application" }).getAttribute("href"))!;
  } finally {
    idp.holdCallbacks(false);
  }
  expect(new URL(callback).pathname).toBe("/api/auth/oidc/callback");
  const transaction = (await page.context().cookies(portal.url)).find((cookie) => cookie.name === "gatehouse_sso")!;
  expect(transaction).toBeTruthy();

  const tampered = new URL(callback);
  tampered.searchParams.set("state", "changed-on-the-way");
  await page.goto(tampered.href);
  await expect(page).toHaveURL(`${portal.url}/login?error=sso_state`);
  await expect(page.getByRole("alert").filter({ hasText: "Not signed in" })).toContainText(
    "This sign-in does not match one started in this browser (it took more than 10 minutes, or another one started since). Start again from this page.",
  );

  // The real callback, replayed by someone holding a copy of the browser's sign-in cookie, after the browser used
  // the code: the provider refuses it.
  const original = await newPage(browser);
  await original.context().addCookies([{ ...transaction }]);
  await original.goto(callback);
  await expect(original.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const attacker = await newPage(browser);
  await attacker.context().addCookies([{ ...transaction }]);
  await attacker.goto(callback);
  await expect(attacker).toHaveURL(`${portal.url}/login?error=sso_code_rejected`);
  await expect(attacker.getByRole("alert").filter({ hasText: "Not signed in" })).toContainText(
    "Test IdP refused to finish this sign-in: its one-time code was already used or has expired. Start again.",
  );
  // And the browser that used it has no sign-in left to finish: that sign-in's cookie is gone (a cookie of another
  // one may be there: the dashboard's 1.2 s re-check may have gone through the provider since, not ours to time),
  // and the callback loaded again refuses. (Asked without following the redirect: the sign-in page would send this
  // signed-in browser on, or through the provider when its re-check is due — neither is what this asserts.)
  const left = (await original.context().cookies(portal.url)).find((cookie) => cookie.name === "gatehouse_sso");
  expect(left?.value).not.toBe(transaction.value);
  const again = await original.request.get(callback, { maxRedirects: 0 });
  expect(again.status()).toBe(303);
  expect(new URL(again.headers().location!, portal.url).href).toBe(`${portal.url}/login?error=sso_state`);
});

// A start checks that the provider answers at most once per 5 s (START_CHECK_MS, lib/auth/oidc/provider.ts) and
// remembers a failure as long: after the provider stops, a click may still reach its dead address (a Chromium error
// page) until its last answer is 5 s old; once it is back, the button may say it is down for up to 5 s more.
test("the provider down: the button answers with one readable sentence, and works once it is back", async ({
  page,
}, testInfo) => {
  const button = page.getByRole("link", { name: "Sign in with Test IdP" });
  await idp.stop();
  try {
    await expect(async () => {
      await page.goto(`${portal.url}/login`);
      await button.click({ timeout: 2_000 });
      await expect(page).toHaveURL(`${portal.url}/login?error=sso_unavailable`, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole("alert").filter({ hasText: "Not signed in" })).toContainText(
      "Test IdP is not answering, so you cannot sign in with it right now. Try again in a few minutes; if it lasts, tell an administrator.",
    );
    await shot(page, testInfo, "sso-unavailable");
  } finally {
    await idp.start();
  }
  await expect(async () => {
    await page.goto(`${portal.url}/login`);
    await button.click({ timeout: 2_000 });
    await expect(page.getByRole("heading", { name: "Sign in to the Test IdP" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
});

test("PASSWORD_LOGIN=off hides the password form; the break-glass admin still signs in with his", async ({
  page,
}, testInfo) => {
  await page.goto(`${portal.url}/login`);
  await expect(page.getByRole("link", { name: "Sign in with Test IdP" })).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await checkBothThemes(page, testInfo, "sso-login");

  // Someone else with a local account and the right password is refused.
  const admin = await page.context().request.post(`${portal.url}/api/auth/login`, {
    headers: { "X-CSRF": "1" },
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  expect(admin.status()).toBe(200);
  const created = await page.context().request.post(`${portal.url}/api/admin/users`, {
    headers: { "X-CSRF": "1" },
    data: {
      email: "local.editor@e2e.test",
      name: "Local Editor",
      role: "editor",
      password: "a local password for the editor",
    },
  });
  expect(created.status()).toBe(201);
  await page.context().clearCookies();

  await page.goto(`${portal.url}/login`);
  await page.getByRole("link", { name: "Break-glass administrator? Sign in with a password" }).click();
  await page.getByLabel("Email").fill("local.editor@e2e.test");
  await page.getByLabel("Password").fill("a local password for the editor");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not signed in" })).toContainText(
    "Password sign-in is turned off on this portal: sign in with Test IdP instead.",
  );

  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Your account" })).toContainText("Admin");
});

test("signing out ends the provider's session too", async ({ page }) => {
  const who = person([ADMIN_GROUP]);
  await signInWithProvider(page, who);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  // A click before the page's script runs does nothing (sign-out needs JavaScript): click until the provider asks.
  const signOut = page.getByRole("button", { name: "Sign out" });
  await expect(async () => {
    if (await signOut.isVisible()) await signOut.click({ timeout: 1_000 }).catch(() => undefined);
    await expect(page.getByRole("heading", { name: "Sign out of the Test IdP?" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page).toHaveURL(`${portal.url}/login`);
  // The provider asks for the password again.
  await page.getByRole("link", { name: "Sign in with Test IdP" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the Test IdP" })).toBeVisible();
});
