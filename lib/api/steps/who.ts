// Who may do this: the CSRF rule for state-changing operations (before anything else), then the session, then
// the operation's permission for the user's role. API tokens (a bearer credential) will be one more way to find
// out who asks, beside the session, before the permission.
import "server-only";

import { sessionNeedsRenewal } from "@/lib/auth/access";
import { csrfRefusal } from "@/lib/auth/csrf";
import { checkSsoSession } from "@/lib/auth/oidc/recheck";
import { can } from "@/lib/auth/permissions";
import { authenticateSession, clearSession, touchSession, writeSession } from "@/lib/auth/session";

import { ApiError, forbidden, unauthenticated } from "../errors";
import { accountsOf, type ApiRequest } from "./request";

/** State-changing operations (sign-in and sign-out too) need X-CSRF: 1, or their page's own Origin for an HTML form. */
export async function csrf(state: ApiRequest): Promise<void> {
  if (state.spec.method === "GET") return;
  const { accounts } = await accountsOf(state);
  const refusal = csrfRefusal(state.request.headers, accounts.config.edge, { htmlForm: state.form !== null });
  if (refusal) throw new ApiError("csrf", refusal);
}

/**
 * The session, checked against the store (its user's session version, disabled flag, and both expiries) and
 * renewed at most once a minute; an expired or ended one is cleared. Public operations skip it, unless they want
 * the caller when there is one (sign-out, readiness).
 */
export async function session(state: ApiRequest): Promise<void> {
  const { spec } = state;
  if (spec.permission === "public" && !spec.optionalSession) return;
  const { accounts, settings } = await accountsOf(state);
  const result = await authenticateSession(accounts.db, state.jar, settings);
  if (result.ok) {
    // A single sign-on session is also re-checked with its provider when due (lib/auth/oidc/recheck.ts) — except by
    // public operations that only look at a session (sign-out must end one whatever its provider says).
    if (spec.permission !== "public") {
      const sso = await checkSsoSession({ db: accounts.db, config: accounts.config, user: result.user, session: result.session, page: false, requestId: state.requestId });
      if (!sso.ok) {
        if (sso.clearCookie) clearSession(state.jar, settings);
        state.endedBecause = sso.message;
        return;
      }
      state.user = sso.user;
    } else {
      state.user = result.user;
    }
    state.session = result.session;
    if (sessionNeedsRenewal(result.session)) {
      state.session = touchSession(result.session);
      await writeSession(state.jar, state.session, settings);
    }
  } else if (result.reason !== "missing") {
    // An expired or ended session: tell the browser to drop the cookie.
    clearSession(state.jar, settings);
  }
}

/** The operation's permission (lib/api/operations.ts): 401 without a user, 403 when the role does not have it. */
export async function permission(state: ApiRequest): Promise<void> {
  const { permission: needed } = state.spec;
  if (needed === "public") return;
  if (!state.user) throw state.endedBecause ? new ApiError("unauthenticated", state.endedBecause) : unauthenticated();
  if (needed !== "signed_in" && !can(state.user.role, needed)) throw forbidden(needed);
}
