// Before the browser tests: the portal started with its first admin (ADMIN_EMAIL); here the other users are
// added through the admin API, and each role's signed-in browser state is saved for the tests to start from.
import { mkdirSync } from "node:fs";

import { request, type APIRequestContext } from "@playwright/test";

import { BROWSER_TIME_ZONE_COOKIE } from "@/lib/contract/time-zone";
import type { Role } from "@/lib/contract/values";

import { ADMIN, AUTH_DIR, authFile, PORTAL_URL, SIGN_OUT_USER, USERS } from "@/tests/support/e2e/settings";

const CSRF = { "X-CSRF": "1" };

// The zone the portal's shell would set on the first page (components/person-time-zone.tsx), that of the
// browser in playwright.config.ts: saved with each state, so no test's first page is rendered twice.
const BROWSER_ZONE_STATE = {
  cookies: [
    {
      name: BROWSER_TIME_ZONE_COOKIE,
      value: encodeURIComponent("Europe/Berlin"),
      domain: new URL(PORTAL_URL).hostname,
      path: "/",
      expires: -1,
      httpOnly: false,
      secure: false,
      sameSite: "Lax" as const,
    },
  ],
  origins: [],
};

async function signIn(context: APIRequestContext, email: string, password: string): Promise<void> {
  const response = await context.post("/api/auth/login", { headers: CSRF, data: { email, password } });
  if (response.status() !== 200)
    throw new Error(`Signing in ${email} failed: ${response.status()} ${await response.text()}`);
}

export default async function globalSetup(): Promise<void> {
  mkdirSync(AUTH_DIR, { recursive: true });
  const admin = await request.newContext({ baseURL: PORTAL_URL, storageState: BROWSER_ZONE_STATE });
  await signIn(admin, ADMIN.email, ADMIN.password);
  const newUsers = [...Object.entries(USERS).map(([role, user]) => ({ ...user, role })), { ...SIGN_OUT_USER }];
  for (const user of newUsers) {
    const response = await admin.post("/api/admin/users", {
      headers: CSRF,
      data: { email: user.email, name: user.name, role: user.role, password: user.password },
    });
    if (response.status() !== 201)
      throw new Error(`Adding ${user.email} failed: ${response.status()} ${await response.text()}`);
  }
  await admin.storageState({ path: authFile("admin") });
  await admin.dispose();

  for (const [role, user] of Object.entries(USERS) as [Exclude<Role, "admin">, (typeof USERS)[keyof typeof USERS]][]) {
    const context = await request.newContext({ baseURL: PORTAL_URL, storageState: BROWSER_ZONE_STATE });
    await signIn(context, user.email, user.password);
    await context.storageState({ path: authFile(role) });
    await context.dispose();
  }
}
