// Before the browser tests: each worker's portal started with its first admin (ADMIN_EMAIL); here the other users
// are added to each through the admin API, and each role's signed-in browser state is saved per portal for the
// tests to start from (settings.ts: authFile).
import { mkdirSync } from "node:fs";

import { request, type APIRequestContext, type FullConfig } from "@playwright/test";

import { BROWSER_TIME_ZONE_COOKIE } from "@/lib/contract/time-zone";
import type { Role } from "@/lib/contract/values";

import { ADMIN, authDir, authFile, E2E_WORKERS, serversOf, SIGN_OUT_USER, USERS } from "@/tests/support/e2e/settings";

const CSRF = { "X-CSRF": "1" };

// The zone the portal's shell would set on the first page (components/person-time-zone.tsx), that of the
// browser in playwright.config.ts: saved with each state, so no test's first page is rendered twice.
const BROWSER_ZONE_STATE = {
  cookies: [
    {
      name: BROWSER_TIME_ZONE_COOKIE,
      value: encodeURIComponent("Europe/Berlin"),
      domain: "127.0.0.1",
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

/** The users and signed-in states of one worker's portal. */
async function setUpPortal(index: number): Promise<void> {
  const { portalUrl, portalPort } = serversOf(index);
  mkdirSync(authDir(portalPort), { recursive: true });
  const admin = await request.newContext({ baseURL: portalUrl, storageState: BROWSER_ZONE_STATE });
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
  await admin.storageState({ path: authFile("admin", portalPort) });
  await admin.dispose();

  for (const [role, user] of Object.entries(USERS) as [Exclude<Role, "admin">, (typeof USERS)[keyof typeof USERS]][]) {
    const context = await request.newContext({ baseURL: portalUrl, storageState: BROWSER_ZONE_STATE });
    await signIn(context, user.email, user.password);
    await context.storageState({ path: authFile(role, portalPort) });
    await context.dispose();
  }
}

export default async function globalSetup(config: FullConfig): Promise<void> {
  // A worker past the last portal would find nothing on its ports: say how to get more portals instead.
  if (config.workers > E2E_WORKERS)
    throw new Error(
      `${config.workers} workers but ${E2E_WORKERS} portals: set E2E_WORKERS=${config.workers} (each worker needs a portal of its own) rather than --workers`,
    );
  await Promise.all(Array.from({ length: E2E_WORKERS }, (_, index) => setUpPortal(index)));
}
