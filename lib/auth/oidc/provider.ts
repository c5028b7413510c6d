// Talking to the identity provider, through openid-client (a certified OpenID Connect relying party): discovery,
// the authorization request (PKCE S256, state, nonce), the code exchange with the ID token validated by the
// library, refresh, userinfo and RP-initiated logout. Nothing of the protocol or of JWT checking is done here by
// hand. Discovery is lazy, shared by the process and kept an hour, and a sign-in start checks that the provider
// answers (at most once per 5 s): a provider that is down at start does not stop the portal, and a start while it
// is down says so. Every failure becomes an SsoError whose `failure` is the sign-in page's error code and whose
// `detail` is what the operator's log line needs (never a token or the client secret).
import "server-only";

import { createHash } from "node:crypto";

import * as client from "openid-client";

import { hasBrand } from "@/lib/brand";
import type { OidcSettings } from "@/lib/config/oidc";
import { processSlot } from "@/lib/process-wide";

import { readClaim, type Claims } from "./roles";

/** The sign-in page's error codes for single sign-on (app/login/messages.ts has a sentence for each). */
export type SsoFailure =
  | "sso_off"
  | "sso_unavailable"
  | "sso_denied"
  | "sso_client_rejected"
  | "sso_code_rejected"
  | "sso_state"
  | "sso_token_invalid"
  | "sso_misconfigured"
  | "sso_failed"
  | "sso_login_required"
  | "sso_no_role"
  | "sso_email_taken"
  | "sso_email_missing"
  | "sso_disabled"
  | "sso_ended"
  | "sso_unconfirmed";

const SSO_ERROR: unique symbol = Symbol.for("gatehouse.SsoError");

export class SsoError extends Error {
  readonly [SSO_ERROR] = true;
  override name = "SsoError";
  constructor(
    readonly failure: SsoFailure,
    message: string,
    /** For the log line: what the provider or the library said (error codes, descriptions, HTTP status). */
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** An SsoError of any copy of this module (lib/brand.ts). */
export function isSsoError(error: unknown): error is SsoError {
  return hasBrand(error, SSO_ERROR);
}

/** The provider must answer within this time (each request), or it counts as down. */
export const PROVIDER_TIMEOUT_SECONDS = 10;
/** Discovery is asked again after this long (a key or endpoint change); the old one is kept if that fails. */
const DISCOVERY_TTL_MS = 60 * 60_000;
/**
 * A sign-in start needs to know the provider answers (or the browser lands on the provider's dead address), but
 * anyone may call it: it asks again only when the last answer is older than this, and a failure is kept as long.
 * Whatever the traffic, starts cost the provider at most one discovery per 5 s.
 */
export const START_CHECK_MS = 5_000;

interface Discovery {
  key: string;
  config?: client.Configuration;
  /** When the provider last answered discovery. */
  at: number;
  /** The last discovery that failed, kept START_CHECK_MS so that a provider down is not asked at each request. */
  failed?: { at: number; error: SsoError };
  pending?: Promise<client.Configuration>;
}

// One per process. openid-client itself is a server external package (next.config.mjs), so every bundle shares
// its one copy and its Configuration class.
const discoverySlot = processSlot<Discovery>("oidc.discovery");

function settingsKey(settings: OidcSettings): string {
  return createHash("sha256")
    .update(JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret]))
    .digest("hex");
}

async function discover(settings: OidcSettings): Promise<client.Configuration> {
  const authentication =
    settings.clientSecret === null ? client.None() : client.ClientSecretBasic(settings.clientSecret);
  // Plain http only reaches here for a loopback issuer (lib/config/oidc.ts refuses any other at start).
  const execute = settings.issuer.startsWith("http:") ? [client.allowInsecureRequests] : [];
  return client.discovery(
    new URL(settings.issuer),
    settings.clientId,
    settings.clientSecret ?? undefined,
    authentication,
    {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      execute,
    },
  );
}

/**
 * The provider's configuration, discovered once and shared by the process; on failure an SsoError (sso_unavailable,
 * sso_misconfigured…). Asked again when it is an hour old (DISCOVERY_TTL_MS); when asking again fails, the one it
 * said before is kept. With `live` (a sign-in start) it is asked again when the provider's last answer is older
 * than START_CHECK_MS, and a failure is thrown, not hidden behind the old one. A failure is remembered as long, so a
 * provider down is not asked at each request. The provider's signing keys are not kept here: openid-client does not
 * check the signature of an ID token that came straight from the token endpoint over TLS (OpenID Connect Core
 * 3.1.3.7), and where it does check one it keeps the key set itself (5 minutes) and fetches it again on an unknown
 * key id. Requests that need it while it is being asked wait for that one answer: a burst of anonymous sign-in
 * starts costs the provider one discovery, not one each.
 */
export async function providerConfig(
  settings: OidcSettings,
  { now = Date.now(), live = false }: { now?: number; live?: boolean } = {},
): Promise<client.Configuration> {
  const key = settingsKey(settings);
  let state = discoverySlot.get();
  if (!state || state.key !== key) {
    state = { key, at: 0 };
    discoverySlot.set(state);
  }
  const current = state;
  const fallback = (error: SsoError): client.Configuration => {
    if (current.config && !live) return current.config;
    throw error;
  };
  if (current.config && now - current.at < (live ? START_CHECK_MS : DISCOVERY_TTL_MS)) return current.config;
  if (current.failed && now - current.failed.at < START_CHECK_MS) return fallback(current.failed.error);
  current.pending ??= discover(settings)
    .then((config) => {
      current.config = config;
      current.at = now;
      current.failed = undefined;
      return config;
    })
    .catch((error: unknown) => {
      const failure = toSsoError(error, "discovery");
      current.failed = { at: now, error: failure };
      throw failure;
    })
    .finally(() => {
      current.pending = undefined;
    });
  try {
    return await current.pending;
  } catch (error) {
    return fallback(toSsoError(error, "discovery"));
  }
}

/** Forgets the discovered configuration (tests; a provider whose keys or endpoints changed). */
export function forgetProviderConfig(): void {
  discoverySlot.set(undefined);
}

/**
 * The scopes asked for: OIDC_SCOPES as given, or "openid email profile" plus the scope that carries the role claim
 * when the provider lists it (groups; Keycloak's roles for realm_access / resource_access). Asking for a scope a
 * provider does not know is an error at Google, Entra and Okta, so nothing unlisted is added.
 */
export function scopesFor(settings: OidcSettings, config: client.Configuration): string {
  if (settings.scopes) return settings.scopes.join(" ");
  const scopes = ["openid", "email", "profile"];
  const supported = config.serverMetadata().scopes_supported ?? [];
  const first = settings.roleClaim.split(".")[0] ?? "";
  const wanted = first === "realm_access" || first === "resource_access" ? "roles" : first;
  if (supported.includes(wanted) && !scopes.includes(wanted)) scopes.push(wanted);
  return scopes.join(" ");
}

export interface AuthorizationRequest {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * Where to send the browser: the authorization endpoint with PKCE (S256), state and nonce. `prompt`: "none" for a
 * silent re-check (no page at the provider: it answers at once, or says login_required), "login" to sign in anew.
 */
export async function authorizationRequest(
  settings: OidcSettings,
  config: client.Configuration,
  { redirectUri, prompt }: { redirectUri: string; prompt?: "none" | "login" },
): Promise<AuthorizationRequest> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: scopesFor(settings, config),
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
    ...(prompt ? { prompt } : {}),
  });
  return { url, state, nonce, codeVerifier };
}

export interface ProviderTokens {
  /** The validated ID token's claims, completed from userinfo when they lack the role claim or the email. */
  claims: Claims;
  idToken: string | null;
  refreshToken: string | null;
}

/**
 * The authorization response at the callback (`callbackUrl`: the registered redirect URI with the query the
 * provider sent) exchanged for tokens. The library checks state, iss, the PKCE verifier at the token endpoint,
 * and the ID token (signature, iss, aud, exp, nonce).
 */
export async function exchangeCode(
  settings: OidcSettings,
  config: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<ProviderTokens> {
  let tokens;
  try {
    tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw toSsoError(error, "token");
  }
  const idClaims = tokens.claims();
  if (!idClaims) throw new SsoError("sso_token_invalid", "the token answer holds no ID token");
  return {
    claims: await vouchedClaims(settings, config, tokens, "token", String(idClaims.sub)),
    idToken: tokens.id_token ?? null,
    refreshToken: tokens.refresh_token ?? null,
  };
}

/**
 * A refresh grant: the provider vouches for the user again, with his current claims (a new ID token, or userinfo
 * when the answer has none). `subject`: whose session it is; any other `sub` is refused.
 */
export async function refreshSession(
  settings: OidcSettings,
  config: client.Configuration,
  refreshToken: string,
  subject: string,
): Promise<ProviderTokens> {
  let tokens;
  try {
    tokens = await client.refreshTokenGrant(config, refreshToken);
  } catch (error) {
    throw toSsoError(error, "refresh");
  }
  const claims = await vouchedClaims(settings, config, tokens, "refresh", subject);
  if (claims.sub !== subject)
    throw new SsoError("sso_token_invalid", "the refreshed ID token names another subject", { expected_sub: subject });
  return { claims, idToken: tokens.id_token ?? null, refreshToken: tokens.refresh_token ?? refreshToken };
}

/**
 * What the provider vouches for, read the same way at sign-in and at every re-check (so that both find the role
 * claim in the same place): the validated ID token's claims, completed from the userinfo endpoint when they lack
 * the role claim or the email (providers that keep profile claims out of ID tokens: oidc-provider's default, some
 * Okta and Authentik set-ups; their refreshed ID tokens lack them just the same), or all from userinfo when a
 * refresh answered without an ID token. The ID token's own values win; the library checks that userinfo's `sub`
 * is `subject`.
 */
async function vouchedClaims(
  settings: OidcSettings,
  config: client.Configuration,
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  phase: "token" | "refresh",
  subject: string,
): Promise<Claims> {
  const idClaims = (tokens.claims() as Claims | undefined) ?? { sub: subject };
  const lacking = readClaim(idClaims, settings.roleClaim) === undefined || typeof idClaims.email !== "string";
  if (!lacking || !config.serverMetadata().userinfo_endpoint) return idClaims;
  try {
    const info = await client.fetchUserInfo(config, tokens.access_token, String(idClaims.sub));
    return { ...(info as Claims), ...idClaims };
  } catch (error) {
    throw toSsoError(error, phase === "refresh" ? "refresh" : "userinfo");
  }
}

/** RP-initiated logout: the provider's end-session URL with id_token_hint, or null when it offers none. */
export function endSessionUrl(
  config: client.Configuration,
  idToken: string | null,
  postLogoutRedirectUri: string,
): URL | null {
  if (!config.serverMetadata().end_session_endpoint) return null;
  return client.buildEndSessionUrl(config, {
    post_logout_redirect_uri: postLogoutRedirectUri,
    ...(idToken ? { id_token_hint: idToken } : {}),
  });
}

const LOGIN_REQUIRED = new Set([
  "login_required",
  "interaction_required",
  "consent_required",
  "account_selection_required",
]);
const MISCONFIGURED = new Set([
  "invalid_scope",
  "unauthorized_client",
  "unsupported_response_type",
  "invalid_request",
  "invalid_client_metadata",
  "invalid_redirect_uri",
]);
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

type Phase = "discovery" | "token" | "refresh" | "userinfo";

const field = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
const text = (value: unknown, max = 300): string | undefined =>
  typeof value === "string" ? value.slice(0, max) : undefined;

/** Claims whose expected and received values are public (the issuer, the client id): shown in the log line. */
const PUBLIC_CLAIMS = new Set(["iss", "aud", "azp"]);

/**
 * Which claim of the ID token did not match, for the operator: its name always; what was expected and what came
 * only for public claims (a nonce or a hash binds the token to one browser's sign-in, and stays out of the log).
 */
function comparedClaim(cause: unknown): Record<string, unknown> {
  // openid-client wraps oauth4webapi's error (whose cause names the claim) in a ClientError of the same code.
  const check = field(cause, "claim") === undefined ? field(cause, "cause") : cause;
  const claim = text(field(check, "claim"), 40);
  if (!claim) return {};
  if (!PUBLIC_CLAIMS.has(claim)) return { claim };
  const shownValue = (value: unknown) =>
    Array.isArray(value) ? value.slice(0, 10).map((entry) => text(entry, 200) ?? null) : (text(value, 200) ?? null);
  return {
    claim,
    expected: shownValue(field(check, "expected")),
    got: shownValue(field(field(check, "claims"), claim)),
  };
}

/**
 * What went wrong, in the sign-in page's terms. Errors are recognised by name and code (lib/brand.ts: never
 * instanceof): oauth4webapi's AuthorizationResponseError (the provider redirected back with ?error=),
 * ResponseBodyError (an OAuth error answer), its OPERATION codes (a check on the answer failed), jose's ERR_JW*
 * (the ID token), and fetch's network errors and timeouts.
 */
export function toSsoError(error: unknown, phase: Phase): SsoError {
  if (isSsoError(error)) return error;
  const name = text(field(error, "name"), 80) ?? typeof error;
  const code = text(field(error, "code"), 80);
  const oauthError = text(field(error, "error"), 80);
  const status = typeof field(error, "status") === "number" ? (field(error, "status") as number) : undefined;
  const cause = field(error, "cause");
  const causeStatus = typeof field(cause, "status") === "number" ? (field(cause, "status") as number) : undefined;
  const detail: Record<string, unknown> = {
    phase,
    error_name: name,
    ...(code ? { error_code: code } : {}),
    ...(oauthError ? { oauth_error: oauthError } : {}),
    ...(text(field(error, "error_description"))
      ? { oauth_error_description: text(field(error, "error_description")) }
      : {}),
    ...((status ?? causeStatus) ? { http_status: status ?? causeStatus } : {}),
    message: text(field(error, "message")) ?? String(error).slice(0, 300),
  };
  const make = (failure: SsoFailure) => new SsoError(failure, String(detail.message), detail);

  if (name === "AuthorizationResponseError") {
    if (oauthError === "access_denied") return make("sso_denied");
    if (oauthError && LOGIN_REQUIRED.has(oauthError)) return make("sso_login_required");
    if (oauthError === "temporarily_unavailable" || oauthError === "server_error") return make("sso_unavailable");
    if (oauthError && MISCONFIGURED.has(oauthError)) return make("sso_misconfigured");
    return make("sso_failed");
  }
  if (name === "ResponseBodyError") {
    if ((status ?? 0) >= 500 || oauthError === "temporarily_unavailable" || oauthError === "server_error")
      return make("sso_unavailable");
    if (oauthError === "invalid_client") return make("sso_client_rejected");
    if (oauthError === "invalid_grant") return make(phase === "refresh" ? "sso_ended" : "sso_code_rejected");
    if (oauthError && MISCONFIGURED.has(oauthError)) return make("sso_misconfigured");
    return make("sso_failed");
  }
  if (name === "WWWAuthenticateChallengeError") {
    // A 401 with a challenge: at the token endpoint, the client's own authentication failed (a wrong secret, with
    // HTTP Basic); at the userinfo endpoint during a re-check, the token is no longer accepted.
    const challenge = Array.isArray(cause)
      ? (cause[0] as { scheme?: unknown; parameters?: Record<string, unknown> } | undefined)
      : undefined;
    const challengeError = text(challenge?.parameters?.error, 80);
    if (challengeError) detail.oauth_error = challengeError;
    if (text(challenge?.scheme, 40)) detail.challenge = text(challenge?.scheme, 40);
    if (phase === "refresh") return make("sso_ended");
    if (phase === "token" && (challengeError === "invalid_client" || (status === 401 && challengeError === undefined)))
      return make("sso_client_rejected");
    return make("sso_failed");
  }
  if (code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || code === "OAUTH_RESPONSE_IS_NOT_JSON") {
    return make((causeStatus ?? 0) >= 500 || code === "OAUTH_RESPONSE_IS_NOT_JSON" ? "sso_unavailable" : "sso_failed");
  }
  if (code === "OAUTH_INVALID_RESPONSE" && /"state"/.test(String(detail.message))) return make("sso_state");
  if (code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED") Object.assign(detail, comparedClaim(cause));
  if (
    code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED" ||
    code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED" ||
    code === "OAUTH_KEY_SELECTION_FAILED" ||
    code === "OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED" ||
    code === "OAUTH_INVALID_RESPONSE" ||
    (code?.startsWith("ERR_JW") ?? false)
  ) {
    return make("sso_token_invalid");
  }
  if (
    code === "OAUTH_INVALID_SERVER_METADATA" ||
    code === "OAUTH_MISSING_SERVER_METADATA" ||
    code === "OAUTH_HTTP_REQUEST_FORBIDDEN"
  )
    return make("sso_misconfigured");
  const causeCode = text(field(cause, "code"), 80);
  if (
    name === "TimeoutError" ||
    name === "AbortError" ||
    (name === "TypeError" && String(detail.message).includes("fetch failed")) ||
    (causeCode && NETWORK_CODES.has(causeCode))
  ) {
    if (causeCode) detail.network_error = causeCode;
    return make("sso_unavailable");
  }
  return make("sso_failed");
}
