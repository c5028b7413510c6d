// Who is signed in, for pages (Server Components). Every page checks here — proxy.ts only redirects requests
// that carry no session cookie at all — and the check is the API's: the sealed cookie, then the store (the
// user's session version, disabled flag, and both expiries). Pages cannot set cookies, so they never renew a
// session; the API requests the pages make do (lib/api/route.ts).
import "server-only";

import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";

import { getServerContext, sessionSettingsFor } from "./access";
import { PAGE_PATH_HEADER } from "./edge-names";
import { startPath } from "./oidc/flow";
import { checkSsoSession, type SsoCheck } from "./oidc/recheck";
import { can } from "./permissions";
import { type Permission, type Role } from "@/lib/contract/values";
import { authenticateSession, sessionExpiresAt } from "./session";

export interface CurrentUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** The IANA time zone he picked; null: his browser's (lib/auth/time-zone.ts). */
  timeZone: string | null;
  /** ISO 8601: when the session ends unless an API request renews it. */
  expiresAt: string;
  /** The policy requires a second factor he has not enrolled: every page but Account → Security sends him there. */
  mustEnrol: boolean;
}

/** Where a session that must enrol a second factor first is sent (SessionData.mustEnrol). */
export const ENROL_PATH = "/account/security";

/**
 * The signed-in user, or null — and for a single sign-on session the provider's re-check when it is due, which may
 * send the page through the provider (`sso`). Checked once per request (React cache), however many components ask.
 */
const getPageSession = cache(async (): Promise<{ user: CurrentUser | null; sso: SsoCheck | null }> => {
  const [cookieStore, headerList, { db, config }] = await Promise.all([cookies(), headers(), getServerContext()]);
  const settings = sessionSettingsFor(config, headerList);
  const result = await authenticateSession(db, cookieStore, settings);
  if (!result.ok) return { user: null, sso: null };
  const sso = await checkSsoSession({ db, config, user: result.user, session: result.session, page: true });
  if (!sso.ok) return { user: null, sso };
  const { user } = sso;
  const { session } = result;
  const current: CurrentUser = {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    timeZone: user.timeZone,
    expiresAt: sessionExpiresAt(session, settings).toISOString(),
    mustEnrol: session.mustEnrol === true,
  };
  return { user: current, sso };
});

/** The signed-in user, or null. */
export const getCurrentUser = cache(async (): Promise<CurrentUser | null> => (await getPageSession()).user);

/**
 * Where a browser continues whose single sign-on session must go through the provider again (its re-check due, or
 * ended by it — the store keeps why), or null. Every page without a user (requirePageUser) and the sign-in page
 * itself ask it: the portal's answer to an API call's 401 is the sign-in page (lib/portal/api-client.ts
 * loginUrlForCurrentPage), so when an API call found first that the groups give him no role, that page must still
 * go through the provider, which says why, instead of offering a sign-in that says nothing.
 */
export async function ssoRestartPath(next: string): Promise<string | null> {
  const { sso } = await getPageSession();
  if (!sso || sso.ok || sso.restart === "login") return null;
  return startPath(next, sso.restart === "silent" ? "none" : undefined);
}

/**
 * A local path to come back to after signing in: only "/…" (never "//host" or "/\host", which browsers read as
 * another site), without control characters. Anything else is "/".
 */
export function safeLocalPath(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\u007f]/.test(value) || value.length > 2048) return "/";
  return value;
}

/**
 * The signed-in user, for a page that needs one. Without a valid session: redirects to /login?next=<this page>.
 * With a role that lacks `permission`: renders app/forbidden.tsx with status 403 (Next's forbidden(); enabled by
 * experimental.authInterrupts in next.config.mjs).
 */
export async function requirePageUser(permission?: Permission): Promise<CurrentUser> {
  const { user } = await getPageSession();
  if (!user) {
    // The path comes from proxy.ts, which overwrites whatever a client sent in this header.
    const here = safeLocalPath((await headers()).get(PAGE_PATH_HEADER));
    redirect((await ssoRestartPath(here)) ?? `/login?next=${encodeURIComponent(here)}`);
  }
  if (user.mustEnrol) {
    const here = safeLocalPath((await headers()).get(PAGE_PATH_HEADER));
    if (here.split("?")[0] !== ENROL_PATH) redirect(`${ENROL_PATH}?${new URLSearchParams({ enrol: "1", next: here })}`);
  }
  if (permission && !can(user, permission)) forbidden();
  return user;
}
