// What the browser tests and their servers agree on: ports, the accounts, where signed-in states are kept.
// Read by playwright.config.ts, the server launcher (serve.ts), the global setup and the tests.
import { tmpdir } from "node:os";
import path from "node:path";

import type { Role } from "@/lib/contract/values";

export const PORTAL_PORT = Number(process.env.E2E_PORT ?? 4511);
export const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4510);
export const PORTAL_URL = `http://127.0.0.1:${PORTAL_PORT}`;
export const SANDBOX_URL = `http://127.0.0.1:${SANDBOX_PORT}`;

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

/** Signed-in browser states (cookies), one file per role, written by the global setup. */
export const AUTH_DIR = path.join(tmpdir(), `gatehouse-e2e-auth-${PORTAL_PORT}`);
export const authFile = (role: Role) => path.join(AUTH_DIR, `${role}.json`);
