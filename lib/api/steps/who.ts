// Who may do this: an API token (a bearer credential) or the session cookie, the CSRF rule for a cookie's
// state-changing operations, then the operation's permission for the user's role and, for a token, its scope.
import "server-only";

import { csrfRefusal } from "@/lib/auth/csrf";
import { checkSsoSession } from "@/lib/auth/oidc/recheck";
import { can } from "@/lib/auth/permissions";
import { stepUpDue, stepUpMethods, stepUpSentence } from "@/lib/auth/factors/step-up";
import { clientAddress } from "@/lib/auth/request";
import { authenticateSession, clearSession, renewSession, sessionNeedsRenewal } from "@/lib/auth/session";
import { TOKEN_PREFIX } from "@/lib/contract/values";
import { describeError, logEvent } from "@/lib/log";
import { checkToken, noteTokenUse, type TokenCheck } from "@/lib/tokens/store";

import { ApiError, forbidden, insufficientScope, unauthenticated } from "../errors";
import { writeAudit } from "./audit";
import { serverContextOf, callerOf, type ApiRequest } from "./request";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * `Authorization: Bearer gth_…`: the token and its owner, read from the store on every request (so a revocation,
 * a disabled owner or a lowered role applies to the next one). A token request never reads or sets the session
 * cookie, and the cookie's CSRF rule does not apply to it: a browser never adds this header by itself. Public
 * operations ignore the header (readiness reads its own METRICS_TOKEN), and so does every operation when the
 * bearer is not a gth_ token.
 */
export async function bearer(state: ApiRequest): Promise<void> {
  if (state.spec.permission === "public") return;
  // Only a Gatehouse token is ours to judge: any other Authorization (a proxy's, a browser extension's) is left
  // alone, and the session decides.
  const secret = BEARER.exec(state.request.headers.get("authorization") ?? "")?.[1];
  if (secret === undefined || !secret.startsWith(TOKEN_PREFIX)) return;
  const { server } = await serverContextOf(state);
  const address = clientAddress(state.request.headers, server.config.edge);
  const check = await checkToken(server.db, secret, address);
  if (!check.ok) throw tokenRefused(check, address);
  state.user = check.user;
  state.token = {
    id: check.token.id,
    name: check.token.name,
    scopes: check.token.scopes,
    expiresAt: check.token.expiresAt,
  };
  state.tokenLimits = {
    id: check.token.id,
    name: check.token.name,
    userId: check.user.id,
    rateLimitPerMinute: check.token.rateLimitPerMinute,
    monthlyQuota: check.token.monthlyQuota,
  };
  try {
    const { newAddress } = await noteTokenUse(server.db, check.token, address);
    if (newAddress) {
      await writeAudit(server, {
        userId: check.user.id,
        userEmail: check.user.email,
        action: "token.new_address",
        target: { type: "token", id: check.token.id, label: check.token.name },
        outcome: "success",
        requestId: state.requestId,
        detail: { address },
      });
    }
  } catch (error) {
    // Noting the use is bookkeeping: the request goes on.
    logEvent("error", "token_use_write_failed", { request_id: state.requestId, error: describeError(error) });
  }
}

function tokenRefused(check: Extract<TokenCheck, { ok: false }>, address: string | null): ApiError {
  const on = (at: string | null | undefined) => (at ? ` on ${at.slice(0, 10)}` : "");
  switch (check.reason) {
    case "malformed":
    case "unknown":
      return new ApiError(
        "token_invalid",
        "This is not a valid Gatehouse API token. Tokens start with gth_; make one on the API tokens page.",
      );
    case "revoked":
      return new ApiError(
        "token_revoked",
        `This API token was revoked${on(check.token?.revokedAt)}. Make a new one on the API tokens page.`,
      );
    case "expired":
      return new ApiError(
        "token_expired",
        `This API token expired${on(check.token?.expiresAt)}. Make a new one on the API tokens page.`,
      );
    case "owner_disabled":
      return new ApiError(
        "token_revoked",
        "The account this API token belongs to is disabled, so the token no longer works.",
      );
    case "address":
      return new ApiError(
        "address_not_allowed",
        address === null
          ? "This API token may be used only from its allowed addresses, and Gatehouse cannot tell the client's address (TRUST_PROXY is not set)."
          : `This API token may not be used from ${address}: it lists the addresses it may be used from.`,
      );
  }
}

/** State-changing operations (sign-in and sign-out too) need X-CSRF: 1, or their page's own Origin for an HTML form. */
export async function csrf(state: ApiRequest): Promise<void> {
  // A signed body (Help Scout's) is its own credential, and the licence API's callers are installed copies whose
  // purchase code is theirs: no cookie is read or set for either, so none can be forged.
  if (state.spec.method === "GET" || state.token || state.spec.rawBody || state.spec.signed) return;
  const { server } = await serverContextOf(state);
  const refusal = csrfRefusal(state.request.headers, server.config.edge, { htmlForm: state.form !== null });
  if (refusal) throw new ApiError("csrf", refusal);
}

/**
 * The session, checked against the store (its user's session version, disabled flag, and both expiries) and
 * renewed at most once a minute; an expired or ended one is cleared. Public operations skip it, unless they want
 * the caller when there is one (sign-out, readiness).
 */
export async function session(state: ApiRequest): Promise<void> {
  const { spec } = state;
  if (state.token || (spec.permission === "public" && !spec.optionalSession)) return;
  const { server, settings } = await serverContextOf(state);
  const result = await authenticateSession(server.db, state.jar, settings);
  if (result.ok) {
    // A single sign-on session is also re-checked with its provider when due (lib/auth/oidc/recheck.ts) — except by
    // public operations that only look at a session (sign-out must end one whatever its provider says).
    if (spec.permission !== "public") {
      const sso = await checkSsoSession({
        db: server.db,
        config: server.config,
        user: result.user,
        session: result.session,
        page: false,
        requestId: state.requestId,
      });
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
    if (sessionNeedsRenewal(result.session)) state.session = await renewSession(state.jar, result.session, settings);
  } else if (result.reason !== "missing") {
    // An expired or ended session: tell the browser to drop the cookie.
    clearSession(state.jar, settings);
  }
}

/**
 * The operation's permission (lib/api/operations): 401 without a user, 403 when the role does not have it;
 * then, for a token, 403 insufficient_scope when its scopes do not include that permission (or the operation is
 * for a signed-in session only); last, for a sensitive operation (`stepUp`) and a session whose last proof is
 * older than STEP_UP_MINUTES, 403 step_up_required (lib/auth/factors/step-up.ts). A token is not asked: it is a
 * scoped credential, made with a fresh proof, that a script cannot renew interactively (docs/second-factors.md).
 */
export async function permission(state: ApiRequest): Promise<void> {
  const { permission: needed, sessionOnly } = state.spec;
  if (needed === "public") return;
  if (!state.user) throw state.endedBecause ? new ApiError("unauthenticated", state.endedBecause) : unauthenticated();
  if (state.session?.mustEnrol && !state.spec.duringEnrolment)
    throw new ApiError(
      "second_factor_required",
      "Your role must use a second factor: add a passkey or an authenticator app on Account → Security first.",
    );
  // The role first (the user alone), then the token's scopes on top: each refusal names its own reason.
  if (needed !== "signed_in" && !can(state.user, needed)) throw forbidden(needed);
  if (state.token && (sessionOnly || (needed !== "signed_in" && !can(callerOf(state)!, needed)))) {
    throw insufficientScope(needed, sessionOnly === true);
  }
  if (state.spec.stepUp && !state.token && state.session && stepUpDue(state.session)) {
    const { server } = await serverContextOf(state);
    const methods = await stepUpMethods(server.db, state.user, state.session);
    throw new ApiError("step_up_required", stepUpSentence(methods));
  }
}
