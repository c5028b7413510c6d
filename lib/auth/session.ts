// Session primitives: what a session cookie holds, how it is sealed (iron-session 8), and the check that
// every request runs. A sealed cookie alone cannot be revoked, so each session carries the user's
// session_version: logout, disabling, and a password or role change bump it, and older cookies stop working.
//
// These functions take a cookie store (`get`/`set`) rather than a Request: Next's `await cookies()` fits it,
// as does NextResponse#cookies. Pages cannot set cookies while rendering, so renew in route handlers or proxy.ts.
import "server-only";

import { createHash } from "node:crypto";

import { sealData, unsealData } from "iron-session";
import { z } from "zod";

import type { SessionConfig } from "@/lib/config/session";
import type { Db } from "@/lib/db";

import { sessionUser } from "./user-cache";
import type { User } from "./users";

import { SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME } from "./edge-names";

export { SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME };

export interface SessionData {
  userId: string;
  /** The user's session_version when the session started. */
  sessionVersion: number;
  /** Epoch milliseconds. */
  issuedAt: number;
  /** Epoch milliseconds; renewed on use, for the idle timeout. */
  lastSeenAt: number;
  /** Signed in with single sign-on: the sso_sessions row the provider re-checks (lib/auth/oidc/recheck.ts). */
  ssoSessionId?: string;
  /**
   * Epoch milliseconds of the last proof that this is the person: the sign-in, or a step-up since
   * (lib/auth/factors/step-up.ts). A sensitive action needs one at most STEP_UP_MINUTES old. Absent in sessions
   * sealed before issue 36: the sign-in (issuedAt) then counts.
   */
  verifiedAt?: number;
  /**
   * The policy requires a second factor he has not enrolled: the session may only enrol one (the account's
   * security page and its API) and sign out, until he does (lib/auth/factors/policy.ts).
   */
  mustEnrol?: true;
}

const sessionDataSchema = z.object({
  userId: z.string().min(1),
  sessionVersion: z.number().int(),
  issuedAt: z.number().finite(),
  lastSeenAt: z.number().finite(),
  ssoSessionId: z.string().min(1).optional(),
  verifiedAt: z.number().finite().optional(),
  mustEnrol: z.literal(true).optional(),
});

export interface SessionTimeouts {
  absoluteMs: number;
  idleMs: number;
}

export type SessionRejection = "missing" | "expired_absolute" | "expired_idle" | "revoked" | "disabled";
export type SessionCheck = { ok: true } | { ok: false; reason: SessionRejection };

/**
 * The rule, with no I/O: is this session still good for this user at this moment? `user` is the current row
 * (null when the user no longer exists).
 */
export function checkSession(
  data: SessionData | null | undefined,
  user: Pick<User, "disabled" | "sessionVersion"> | null | undefined,
  now: Date | number,
  { absoluteMs, idleMs }: SessionTimeouts,
): SessionCheck {
  if (!data) return { ok: false, reason: "missing" };
  const t = typeof now === "number" ? now : now.getTime();
  if (t >= data.issuedAt + absoluteMs) return { ok: false, reason: "expired_absolute" };
  if (t >= data.lastSeenAt + idleMs) return { ok: false, reason: "expired_idle" };
  if (!user) return { ok: false, reason: "revoked" };
  if (user.disabled) return { ok: false, reason: "disabled" };
  if (user.sessionVersion !== data.sessionVersion) return { ok: false, reason: "revoked" };
  return { ok: true };
}

export function newSession(user: Pick<User, "id" | "sessionVersion">, now: Date = new Date()): SessionData {
  const t = now.getTime();
  return { userId: user.id, sessionVersion: user.sessionVersion, issuedAt: t, lastSeenAt: t, verifiedAt: t };
}

/** The same session, seen now (restarts the idle timeout, never the absolute one). */
export function touchSession(data: SessionData, now: Date = new Date()): SessionData {
  return { ...data, lastSeenAt: now.getTime() };
}

/** When the session ends if nothing renews it: the sooner of the absolute and the idle limit. */
export function sessionExpiresAt(data: SessionData, { absoluteMs, idleMs }: SessionTimeouts): Date {
  return new Date(Math.min(data.issuedAt + absoluteMs, data.lastSeenAt + idleMs));
}

export interface SessionSettings extends SessionTimeouts {
  /** Newest first. */
  secrets: readonly string[];
  /** Served over https: Secure cookie with the __Host- name. */
  secure: boolean;
}

export function sessionSettings(
  config: { session: Pick<SessionConfig, "secrets" | "absoluteTimeoutMs" | "idleTimeoutMs"> },
  { secure }: { secure: boolean },
): SessionSettings {
  return {
    secrets: config.session.secrets,
    absoluteMs: config.session.absoluteTimeoutMs,
    idleMs: config.session.idleTimeoutMs,
    secure,
  };
}

export interface SessionCookieOptions {
  httpOnly: true;
  secure: boolean;
  sameSite: "lax" | "strict";
  path: "/";
  maxAge?: number;
}

export function sessionCookie({ secure }: { secure: boolean }): { name: string; options: SessionCookieOptions } {
  return {
    name: secure ? SECURE_SESSION_COOKIE_NAME : SESSION_COOKIE_NAME,
    options: { httpOnly: true, secure, sameSite: "lax", path: "/" },
  };
}

// Iron names the password that sealed a cookie inside the seal, and iron-session seals with the highest
// numeric id. Ids derived from each secret's content (not its position in the list) stay the same when
// secrets are added or dropped, so rotation never invalidates cookies sealed with a secret still listed.
function passwordId(secret: string): string {
  return String(createHash("sha256").update(secret).digest().readUIntBE(0, 6));
}

function sealingPassword(secrets: readonly string[]): Record<string, string> {
  const newest = secrets[0];
  if (newest === undefined) throw new Error("session settings hold no secret");
  return { [passwordId(newest)]: newest };
}

function unsealingPasswords(secrets: readonly string[]): Record<string, string> {
  return Object.fromEntries(secrets.map((s) => [passwordId(s), s]));
}

export async function sealSession(
  data: SessionData,
  settings: SessionSettings,
  now: Date = new Date(),
): Promise<string> {
  const ttlSeconds = Math.ceil((data.issuedAt + settings.absoluteMs - now.getTime()) / 1000);
  if (ttlSeconds <= 0) throw new Error("cannot seal a session past its absolute expiry");
  // The seal's own expiry backs up the absolute timeout.
  return sealData(data, { password: sealingPassword(settings.secrets), ttl: ttlSeconds });
}

// Opening a seal is WebCrypto work (~0.6 ms here) on every signed-in request, and a browser sends the same sealed
// cookie until it is renewed (at most once a minute). So the seals opened recently are remembered, per set of
// secrets, in a small LRU map. This skips only the decryption: expiry, revocation and the user's state are still
// checked on every request (checkSession, against the store). Only valid seals are kept, so forged cookies cannot
// fill it.
const openedSeals = sealMemory<SessionData>();

/**
 * Seals remembered per set of secrets (a rotation starts afresh; an old set's entries go with it), the least
 * recently used dropped past 2,000: the opened seals, and the renewals made for them.
 */
function sealMemory<T>(max = 2_000) {
  const bySecrets = new WeakMap<readonly string[], Map<string, T>>();
  return {
    get(settings: SessionSettings, sealed: string): T | undefined {
      const seals = bySecrets.get(settings.secrets);
      const value = seals?.get(sealed);
      if (value !== undefined) {
        seals!.delete(sealed); // re-inserted: most recently used last
        seals!.set(sealed, value);
      }
      return value;
    },
    set(settings: SessionSettings, sealed: string, value: T): void {
      let seals = bySecrets.get(settings.secrets);
      if (!seals) bySecrets.set(settings.secrets, (seals = new Map()));
      seals.delete(sealed);
      seals.set(sealed, value);
      if (seals.size > max) seals.delete(seals.keys().next().value as string);
    },
  };
}

/** The session inside a sealed value, or null when it is absent, forged, sealed with an unknown secret or expired. */
export async function unsealSession(
  sealed: string | undefined,
  settings: SessionSettings,
): Promise<SessionData | null> {
  if (!sealed) return null;
  const remembered = openedSeals.get(settings, sealed);
  if (remembered) return { ...remembered };
  let data: unknown;
  try {
    data = await unsealData<unknown>(sealed, { password: unsealingPasswords(settings.secrets) });
  } catch {
    return null; // malformed seal
  }
  const parsed = sessionDataSchema.safeParse(data);
  if (!parsed.success) return null;
  openedSeals.set(settings, sealed, parsed.data);
  return { ...parsed.data };
}

/**
 * A session is renewed (its idle timer restarted, the cookie rewritten) at most once a minute: rewriting the
 * cookie on every request would cost a seal per request and a Set-Cookie on every answer.
 */
export const SESSION_RENEWAL_INTERVAL_MS = 60_000;

export function sessionNeedsRenewal(session: SessionData, now: number = Date.now()): boolean {
  return now - session.lastSeenAt >= SESSION_RENEWAL_INTERVAL_MS;
}

// Renewing seals a new cookie (WebCrypto, as opening one is). A client that keeps sending the cookie it had (a
// script with a fixed Cookie header, the requests already in flight when the browser got the renewed one) would
// pay for a new seal on every request until it sends the new cookie: a benchmark's signed-in list cost twice as
// much CPU a minute after signing in. So the renewal made for a seal is remembered (sealMemory), and the
// same renewed cookie is sent again while it needs no renewal itself. Only seals that opened are renewed, so
// forged cookies cannot fill it.
const renewedSeals = sealMemory<{ sealed: string; session: SessionData }>();

/**
 * `session` (read from the request's cookie) seen now: restarts its idle timeout and sets the renewed cookie.
 * Returns the renewed session.
 */
export async function renewSession(
  cookies: SessionCookieStore,
  session: SessionData,
  settings: SessionSettings,
  now: Date = new Date(),
): Promise<SessionData> {
  const sent = cookies.get(sessionCookie(settings).name)?.value;
  const earlier = sent === undefined ? undefined : renewedSeals.get(settings, sent);
  if (earlier && !sessionNeedsRenewal(earlier.session, now.getTime())) {
    setSessionCookie(cookies, earlier.sealed, earlier.session, settings, now);
    return { ...earlier.session };
  }
  const renewed = touchSession(session, now);
  const sealed = await sealSession(renewed, settings, now);
  setSessionCookie(cookies, sealed, renewed, settings, now);
  if (sent !== undefined) renewedSeals.set(settings, sent, { sealed, session: renewed });
  return renewed;
}

/** The subset of Next's cookie store (and NextResponse#cookies) used here. */
export interface SessionCookieStore {
  get(name: string): { value: string } | undefined;
  set(name: string, value: string, options: SessionCookieOptions): unknown;
}

export async function readSession(cookies: SessionCookieStore, settings: SessionSettings): Promise<SessionData | null> {
  return unsealSession(cookies.get(sessionCookie(settings).name)?.value, settings);
}

export async function writeSession(
  cookies: SessionCookieStore,
  data: SessionData,
  settings: SessionSettings,
  now: Date = new Date(),
): Promise<void> {
  setSessionCookie(cookies, await sealSession(data, settings, now), data, settings, now);
}

function setSessionCookie(
  cookies: SessionCookieStore,
  sealed: string,
  data: SessionData,
  settings: SessionSettings,
  now: Date,
): void {
  const { name, options } = sessionCookie(settings);
  // The browser drops the cookie when the session would expire anyway (the server checks regardless).
  const maxAge = Math.max(1, Math.floor((sessionExpiresAt(data, settings).getTime() - now.getTime()) / 1000));
  cookies.set(name, sealed, { ...options, maxAge });
}

export function clearSession(cookies: SessionCookieStore, settings: Pick<SessionSettings, "secure">): void {
  const { name, options } = sessionCookie(settings);
  cookies.set(name, "", { ...options, maxAge: 0 });
}

export type AuthenticatedSession =
  { ok: true; user: User; session: SessionData } | { ok: false; reason: SessionRejection };

/**
 * The per-request check: reads the cookie, loads the user, applies checkSession. On success, write back
 * renewSession where the response can carry a cookie, when sessionNeedsRenewal, to keep the session alive.
 */
export async function authenticateSession(
  db: Db,
  cookies: SessionCookieStore,
  settings: SessionSettings,
  now: Date = new Date(),
): Promise<AuthenticatedSession> {
  const session = await readSession(cookies, settings);
  if (!session) return { ok: false, reason: "missing" };
  const user = await sessionUser(db, session.userId);
  const check = checkSession(session, user, now, settings);
  if (!check.ok) return check;
  // checkSession returned ok, so the user exists.
  return user ? { ok: true, user, session } : { ok: false, reason: "revoked" };
}
