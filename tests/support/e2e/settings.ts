// What the browser tests and their servers agree on: ports, the accounts, where signed-in states are kept.
// Read by playwright.config.ts, the server launcher (serve.ts), the global setup and the tests.
//
// Each Playwright worker has a portal of its own (its own sandbox, store and users): worker i (Playwright's
// parallel index, 0 to E2E_WORKERS - 1) uses the portal on E2E_PORT + 2i and the sandbox on E2E_SANDBOX_PORT + 2i.
// Playwright sets TEST_PARALLEL_INDEX in a worker before it loads the config and the spec files, so there the
// constants below name the worker's own servers; in the runner, the global setup and scripts they name worker 0's.
import { tmpdir } from "node:os";
import path from "node:path";

import type { Role } from "@/lib/contract/values";

/** How many workers run the browser tests, each on its own portal and sandbox (2: one per core of CI's machine). */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 2);
const FIRST_PORTAL_PORT = Number(process.env.E2E_PORT ?? 4511);
const FIRST_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4510);

/** The servers of worker `index`: its portal's and sandbox's ports and URLs. */
export function serversOf(index: number) {
  const portalPort = FIRST_PORTAL_PORT + 2 * index;
  const sandboxPort = FIRST_SANDBOX_PORT + 2 * index;
  return {
    portalPort,
    sandboxPort,
    portalUrl: `http://127.0.0.1:${portalPort}`,
    sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
  };
}

const OWN = serversOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
/** This worker's portal and sandbox (see above). */
export const PORTAL_URL = OWN.portalUrl;
export const SANDBOX_URL = OWN.sandboxUrl;

/** The first admin, created at start from ADMIN_EMAIL and ADMIN_PASSWORD. */
export const ADMIN = { email: "admin@e2e.test", password: "e2e-admin-password-1", name: "Ada Admin" } as const;
/** One user per other role, created by the global setup through the admin API. */
export const USERS: Record<Exclude<Role, "admin">, { email: string; password: string; name: string }> = {
  editor: { email: "editor@e2e.test", password: "e2e-editor-password-1", name: "Eddie Editor" },
  viewer: { email: "viewer@e2e.test", password: "e2e-viewer-password-1", name: "Vera Viewer" },
  support: { email: "support@e2e.test", password: "e2e-support-password-1", name: "Sam Support" },
};
/** Signs in and out in the sign-out test: signing out ends every session of a user, so no other test uses it. */
export const SIGN_OUT_USER = {
  email: "leaver@e2e.test",
  password: "e2e-leaver-password-1",
  name: "Lee Leaver",
  role: "viewer",
} as const;

export function credentialsOf(role: Role): { email: string; password: string; name: string } {
  return role === "admin" ? ADMIN : USERS[role];
}

/** Signed-in browser states (cookies) of a portal (by default this worker's), one file per role, written by the global setup. */
export const authDir = (portalPort = OWN.portalPort) => path.join(tmpdir(), `gatehouse-e2e-auth-${portalPort}`);
export const authFile = (role: Role, portalPort = OWN.portalPort) => path.join(authDir(portalPort), `${role}.json`);
