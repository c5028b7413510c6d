// Signing in with the identity provider, as the two routes run it. The start (GET /api/auth/oidc/start) keeps
// state, nonce and the PKCE verifier in the transaction cookie and sends the browser to the provider; the
// callback (GET /api/auth/oidc/callback) takes the cookie (once), lets openid-client check the answer and exchange
// the code, matches the user, and starts a Gatehouse session. Whatever fails ends on the sign-in page with an
// error code that the page turns into one sentence — never the provider's raw answer or a stack — while the log
// line keeps the detail for the operator. Both routes are GETs: the callback is what the provider redirects the
// browser to, and it is exempt from the X-CSRF rule only because the state and the PKCE verifier, bound to this
// browser's transaction cookie, already prove that this browser started this sign-in.
import "server-only";

import type { ServerContext } from "@/lib/auth/access";
import type { OidcSettings } from "@/lib/config/oidc";
import { logEvent } from "@/lib/log";

import type { AuditEntry } from "../audit";
import type { EdgeSettings } from "@/lib/config/edge";

import { portalOrigin, type HeaderReader } from "../request";
import { newSession, writeSession, type SessionCookieStore, type SessionData, type SessionSettings } from "../session";

import {
  authorizationRequest,
  endSessionUrl,
  exchangeCode,
  providerConfig,
  SsoError,
  toSsoError,
  type SsoFailure,
} from "./provider";
import { createSsoSession, endSsoSession, endUserSsoSessions, getSsoSession } from "./sessions";
import { signInWithClaims } from "./sign-in";
import { clearTransaction, readTransaction, writeTransaction } from "./transaction";

export const CALLBACK_PATH = "/api/auth/oidc/callback";
export const START_PATH = "/api/auth/oidc/start";

/** An audit row the route writes (lib/api/route.ts fills in the request id). */
export type AuditWriter = (entry: Omit<AuditEntry, "requestId">) => Promise<void>;

/** Where the browser goes next: a path of this site, or (external) the provider. */
export type Destination = { location: string; external: boolean };

/** The redirect URI for this request: PUBLIC_ORIGIN's, or (without it) the served host's, + the callback path. */
export function redirectUriFor(headers: HeaderReader, edge: EdgeSettings): string | null {
  const origin = edge.publicOrigin ?? portalOrigin(headers, edge);
  return origin ? `${origin}${CALLBACK_PATH}` : null;
}

/** The sign-in page with an error code (and where to go afterwards); it says what happened in one sentence. */
export function loginErrorPath(failure: SsoFailure, next: string): string {
  const query = new URLSearchParams({ error: failure });
  if (next !== "/") query.set("next", next);
  return `/login?${query}`;
}

/** The start of a sign-in from a page: `next` must already be a checked path of this site. */
export function startPath(next: string, prompt?: "none" | "login"): string {
  const query = new URLSearchParams();
  if (next !== "/") query.set("next", next);
  if (prompt) query.set("prompt", prompt);
  const text = query.toString();
  return text ? `${START_PATH}?${text}` : START_PATH;
}

interface FlowContext {
  settings: OidcSettings;
  edge: EdgeSettings;
  headers: HeaderReader;
  sessionSettings: SessionSettings;
  cookies: SessionCookieStore;
  requestId: string;
  now?: number;
}

function logFailure(requestId: string, error: SsoError): void {
  // Errors Gatehouse's operator must fix are errors; what a person or the provider's weather causes, warnings.
  const level =
    error.failure === "sso_client_rejected" ||
    error.failure === "sso_misconfigured" ||
    error.failure === "sso_token_invalid"
      ? "error"
      : "warn";
  logEvent(level, "sso_sign_in_failed", { request_id: requestId, failure: error.failure, detail: error.detail });
}

/** Sends the browser to the provider, or (provider down, misconfigured) back to the sign-in page with the reason. */
export async function beginSignIn(
  context: FlowContext,
  { next, prompt }: { next: string; prompt?: "none" | "login" },
): Promise<Destination> {
  const redirectUri = redirectUriFor(context.headers, context.edge);
  try {
    if (!redirectUri) throw new SsoError("sso_misconfigured", "no origin for the redirect URI: set PUBLIC_ORIGIN");
    // Anyone may call this route: the provider is asked whether it answers at most once per 5 s, not at each start.
    // A provider down makes the page say so instead of sending the browser to an error.
    const config = await providerConfig(context.settings, { now: context.now, live: true });
    const request = await authorizationRequest(context.settings, config, { redirectUri, prompt });
    writeTransaction(
      context.cookies,
      {
        state: request.state,
        nonce: request.nonce,
        codeVerifier: request.codeVerifier,
        redirectUri,
        next,
        silent: prompt === "none",
        startedAt: context.now ?? Date.now(),
      },
      context.sessionSettings,
    );
    return { location: request.url.href, external: true };
  } catch (error) {
    const failure = toSsoError(error, "discovery");
    logFailure(context.requestId, failure);
    return { location: loginErrorPath(failure.failure, next), external: false };
  }
}

const SECURITY_REFUSALS: ReadonlySet<SsoFailure> = new Set(["sso_state", "sso_code_rejected", "sso_token_invalid"]);

/**
 * The provider's answer. `query`: the callback's query string as the browser sent it; `current`: the session this
 * browser already has, if any (a silent re-check replaces it).
 */
export async function finishSignIn(
  context: FlowContext & { server: ServerContext; audit: AuditWriter; current: SessionData | null },
  query: URLSearchParams,
): Promise<Destination> {
  const now = context.now ?? Date.now();
  const transaction = readTransaction(context.cookies, context.sessionSettings, now);
  // Used once — but only by the answer to it: a forged callback (another state) must not cancel a sign-in in flight.
  if (!transaction || query.get("state") === transaction.state)
    clearTransaction(context.cookies, context.sessionSettings);
  const next = transaction?.next ?? "/";
  const refuse = async (error: SsoError): Promise<Destination> => {
    logFailure(context.requestId, error);
    await context.audit({
      userId: null,
      userEmail: null,
      action: "auth.sso_refused",
      target: null,
      outcome: SECURITY_REFUSALS.has(error.failure) ? "denied" : "failure",
      detail: { provider: context.settings.label, phase: "sign_in", reason: error.failure.replace(/^sso_/, "") },
    });
    return { location: loginErrorPath(error.failure, next), external: false };
  };

  if (!transaction)
    return refuse(
      new SsoError(
        "sso_state",
        "no sign-in in flight in this browser (no transaction cookie, or over 10 minutes old)",
        { phase: "callback" },
      ),
    );
  if (query.get("state") !== transaction.state)
    return refuse(new SsoError("sso_state", "the state does not match this browser's sign-in", { phase: "callback" }));

  let tokens;
  try {
    const config = await providerConfig(context.settings);
    // The URL the provider sent the browser to, as registered (behind a proxy, the request's own URL is not).
    const callbackUrl = new URL(transaction.redirectUri);
    callbackUrl.search = query.toString();
    tokens = await exchangeCode(context.settings, config, callbackUrl, transaction);
  } catch (error) {
    const failure = toSsoError(error, "token");
    // A silent re-check the provider cannot answer without its page: go through its page.
    if (failure.failure === "sso_login_required" && transaction.silent) return beginSignIn(context, { next });
    return refuse(failure);
  }

  const { db, config: authConfig } = context.server;
  const result = await signInWithClaims(db, context.settings, tokens.claims, new Date(now));
  if (!result.ok) {
    const { refusal } = result;
    logEvent("warn", "sso_sign_in_refused", {
      request_id: context.requestId,
      failure: refusal.failure,
      user_id: refusal.user?.id ?? null,
      detail: refusal.detail,
    });
    await context.audit({
      userId: refusal.user?.id ?? null,
      userEmail: refusal.email,
      action: "auth.sso_refused",
      target: refusal.user ? { type: "user", id: refusal.user.id, label: refusal.user.email } : null,
      outcome: "denied",
      detail: refusal.detail,
    });
    return { location: loginErrorPath(refusal.failure, next), external: false };
  }

  const { user } = result;
  const ssoSessionId = await createSsoSession(db, authConfig.session.secrets, {
    userId: user.id,
    issuer: context.settings.issuer,
    subject: String(tokens.claims.sub),
    refreshToken: tokens.refreshToken,
    idToken: tokens.idToken,
    now,
    expiresAt: now + authConfig.session.absoluteTimeoutMs,
  });
  // A silent re-check's new session replaces the one it confirmed.
  if (context.current?.ssoSessionId) await endSsoSession(db, context.current.ssoSessionId);
  const session: SessionData = { ...newSession(user, new Date(now)), ssoSessionId };
  await writeSession(context.cookies, session, context.sessionSettings, new Date(now));

  const target = { type: "user" as const, id: user.id, label: user.email };
  if (result.roleChange) {
    await context.audit({
      userId: user.id,
      userEmail: user.email,
      action: "user.sso_role",
      target,
      outcome: "success",
      detail: {
        from: result.roleChange.from,
        to: result.roleChange.to,
        phase: "sign_in",
        provider: context.settings.label,
      },
    });
  }
  await context.audit({
    userId: user.id,
    userEmail: user.email,
    action: "auth.sso_login",
    target,
    outcome: "success",
    detail: { provider: context.settings.label, role: user.role, created: result.created, silent: transaction.silent },
  });
  return { location: next, external: false };
}

/**
 * Sign-out of a single sign-on session: every SSO session of the user ends here, and when the provider offers
 * RP-initiated logout, the URL where the browser ends the provider's session too (with id_token_hint, back to
 * /login). null when there is nothing to end there, or the provider cannot be asked now (logged).
 */
export async function endSignIn(
  context: Omit<FlowContext, "sessionSettings" | "cookies"> & {
    server: ServerContext;
    session: SessionData;
    userId: string;
  },
): Promise<string | null> {
  const { db, config } = context.server;
  let url: string | null = null;
  const row = context.session.ssoSessionId
    ? await getSsoSession(db, config.session.secrets, context.session.ssoSessionId)
    : null;
  const origin = context.edge.publicOrigin ?? portalOrigin(context.headers, context.edge);
  if (row && origin) {
    try {
      url = endSessionUrl(await providerConfig(context.settings), row.idToken, `${origin}/login`)?.href ?? null;
    } catch (error) {
      logEvent("warn", "sso_logout_skipped", {
        request_id: context.requestId,
        detail: toSsoError(error, "discovery").detail,
      });
    }
  }
  await endUserSsoSessions(db, context.userId);
  return url;
}
