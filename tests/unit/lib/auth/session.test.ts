import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  authenticateSession,
  checkSession,
  clearSession,
  newSession,
  readSession,
  renewSession,
  sealSession,
  SECURE_SESSION_COOKIE_NAME,
  SESSION_COOKIE_NAME,
  sessionCookie,
  sessionExpiresAt,
  sessionSettings,
  touchSession,
  unsealSession,
  writeSession,
  type SessionCookieOptions,
  type SessionData,
  type SessionSettings,
} from "@/lib/auth/session";
import { createUser, getUserById, revokeSessions, updateUser, type User } from "@/lib/auth/users";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";

import { fast } from "@/tests/support/store-backends";

const HOUR = 3_600_000;
const MIN = 60_000;
const T0 = Date.parse("2025-03-01T08:00:00.000Z");
const timeouts = { absoluteMs: 12 * HOUR, idleMs: 2 * HOUR };
const SECRET_A = "a".repeat(32);
const SECRET_B = "b".repeat(40);
const SECRET_C = "c".repeat(32);

function settings(secrets: string[], secure = false): SessionSettings {
  return { ...timeouts, secrets, secure };
}

/** A cookie jar with the shape of Next's cookie store; keeps the options of the last set. */
class Jar {
  readonly values = new Map<string, { value: string; options: SessionCookieOptions }>();
  get(name: string) {
    const entry = this.values.get(name);
    return entry && entry.options.maxAge !== 0 ? { value: entry.value } : undefined;
  }
  set(name: string, value: string, options: SessionCookieOptions) {
    this.values.set(name, { value, options });
  }
  /** A copy, as an attacker who stole the cookie would keep it. */
  copy(): Jar {
    const jar = new Jar();
    for (const [k, v] of this.values) jar.values.set(k, { ...v });
    return jar;
  }
}

const session = (overrides: Partial<SessionData> = {}): SessionData => ({
  userId: "u1",
  sessionVersion: 3,
  issuedAt: T0,
  lastSeenAt: T0,
  ...overrides,
});
const activeUser = { disabled: false, sessionVersion: 3 };

describe("checkSession", () => {
  it("accepts a fresh session of an active user whose version matches", () => {
    expect(checkSession(session(), activeUser, T0 + MIN, timeouts)).toEqual({ ok: true });
    expect(checkSession(session(), activeUser, new Date(T0), timeouts)).toEqual({ ok: true });
  });

  it("says missing when there is no session", () => {
    expect(checkSession(null, activeUser, T0, timeouts)).toEqual({ ok: false, reason: "missing" });
    expect(checkSession(undefined, null, T0, timeouts)).toEqual({ ok: false, reason: "missing" });
  });

  it("ends a session 12 hours after sign-in however active it is", () => {
    const busy = session({ lastSeenAt: T0 + 12 * HOUR - MIN });
    expect(checkSession(busy, activeUser, T0 + 12 * HOUR - 1, timeouts)).toEqual({ ok: true });
    expect(checkSession(busy, activeUser, T0 + 12 * HOUR, timeouts)).toEqual({ ok: false, reason: "expired_absolute" });
  });

  it("ends a session unused for 2 hours", () => {
    const seen = session({ lastSeenAt: T0 + HOUR });
    expect(checkSession(seen, activeUser, T0 + 3 * HOUR - 1, timeouts)).toEqual({ ok: true });
    expect(checkSession(seen, activeUser, T0 + 3 * HOUR, timeouts)).toEqual({ ok: false, reason: "expired_idle" });
  });

  it("refuses a disabled user, a changed session version, and a user who no longer exists", () => {
    expect(checkSession(session(), { disabled: true, sessionVersion: 3 }, T0, timeouts)).toEqual({
      ok: false,
      reason: "disabled",
    });
    expect(checkSession(session(), { disabled: false, sessionVersion: 4 }, T0, timeouts)).toEqual({
      ok: false,
      reason: "revoked",
    });
    expect(checkSession(session(), null, T0, timeouts)).toEqual({ ok: false, reason: "revoked" });
  });

  it("reports expiry before revocation (an old cookie reads as expired)", () => {
    expect(checkSession(session(), { disabled: true, sessionVersion: 9 }, T0 + 13 * HOUR, timeouts)).toEqual({
      ok: false,
      reason: "expired_absolute",
    });
  });

  it("honours other timeouts", () => {
    const short = { absoluteMs: HOUR, idleMs: 5 * MIN };
    expect(checkSession(session(), activeUser, T0 + 5 * MIN, short)).toEqual({ ok: false, reason: "expired_idle" });
  });
});

describe("session data helpers", () => {
  it("starts a session at the user's version, renews only the idle clock, and says when it ends", () => {
    const started = newSession({ id: "u1", sessionVersion: 7 }, new Date(T0));
    expect(started).toEqual({ userId: "u1", sessionVersion: 7, issuedAt: T0, lastSeenAt: T0, verifiedAt: T0 });
    expect(sessionExpiresAt(started, timeouts).toISOString()).toBe("2025-03-01T10:00:00.000Z");
    const later = touchSession(started, new Date(T0 + 11 * HOUR));
    expect(later).toEqual({ ...started, lastSeenAt: T0 + 11 * HOUR });
    expect(sessionExpiresAt(later, timeouts).toISOString()).toBe("2025-03-01T20:00:00.000Z"); // the absolute limit
  });

  it("builds settings from the accounts config", () => {
    const config = { session: { secrets: [SECRET_A], absoluteTimeoutMs: HOUR, idleTimeoutMs: MIN } };
    expect(sessionSettings(config, { secure: true })).toEqual({
      secrets: [SECRET_A],
      absoluteMs: HOUR,
      idleMs: MIN,
      secure: true,
    });
  });
});

describe("session cookie", () => {
  it("is HttpOnly, SameSite=Lax, path /; over https also Secure with the __Host- name", () => {
    expect(sessionCookie({ secure: false })).toEqual({
      name: SESSION_COOKIE_NAME,
      options: { httpOnly: true, secure: false, sameSite: "lax", path: "/" },
    });
    expect(sessionCookie({ secure: true })).toEqual({
      name: "__Host-gatehouse_session",
      options: { httpOnly: true, secure: true, sameSite: "lax", path: "/" },
    });
    expect(SECURE_SESSION_COOKIE_NAME.startsWith("__Host-")).toBe(true);
  });

  it("round-trips through a cookie store, expiring in the browser when the session would", async () => {
    const jar = new Jar();
    const data = session({ userId: "user-id-nobody-should-read", issuedAt: Date.now(), lastSeenAt: Date.now() });
    await writeSession(jar, data, settings([SECRET_A]), new Date(data.issuedAt));
    const cookie = jar.values.get(SESSION_COOKIE_NAME);
    expect(cookie?.options).toEqual({ httpOnly: true, secure: false, sameSite: "lax", path: "/", maxAge: 2 * 3600 });
    expect(cookie?.value).not.toContain("nobody-should-read"); // sealed: encrypted, not just signed
    expect(Buffer.from(cookie?.value ?? "", "base64url").toString("latin1")).not.toContain("nobody-should-read");
    expect(await readSession(jar, settings([SECRET_A]))).toEqual(data);
    // An https deployment reads its own cookie name only.
    expect(await readSession(jar, settings([SECRET_A], true))).toBeNull();

    clearSession(jar, { secure: false });
    expect(jar.values.get(SESSION_COOKIE_NAME)?.options.maxAge).toBe(0);
    expect(await readSession(jar, settings([SECRET_A]))).toBeNull();
  });

  it("renews a session once for a cookie sent again, until the renewed session itself is due", async () => {
    const secrets = settings([SECRET_A]);
    const jar = new Jar();
    await writeSession(jar, session(), secrets, new Date(T0));
    const sent = jar.copy();
    const at = (ms: number) => new Date(T0 + ms);

    const first = await renewSession(sent, session(), secrets, at(2 * MIN));
    expect(first.lastSeenAt).toBe(T0 + 2 * MIN);
    const renewedCookie = sent.values.get(SESSION_COOKIE_NAME)!;
    expect(await unsealSession(renewedCookie.value, secrets)).toEqual(first);

    // The old cookie again, 30 s later: the same renewed cookie (a new seal would differ by its random IV), the
    // cookie's max-age counted from now.
    const again = jar.copy();
    expect(await renewSession(again, session(), secrets, at(2 * MIN + 30_000))).toEqual(first);
    expect(again.values.get(SESSION_COOKIE_NAME)?.value).toBe(renewedCookie.value);
    expect(again.values.get(SESSION_COOKIE_NAME)?.options.maxAge).toBe(2 * 3600 - 30);

    // A minute after that renewal, the old cookie gets a new one; so does the same cookie under other secrets.
    const later = jar.copy();
    expect((await renewSession(later, session(), secrets, at(3 * MIN + 1))).lastSeenAt).toBe(T0 + 3 * MIN + 1);
    expect(later.values.get(SESSION_COOKIE_NAME)?.value).not.toBe(renewedCookie.value);
    const rotated = jar.copy();
    await renewSession(rotated, session(), settings([SECRET_B, SECRET_A]), at(2 * MIN + 30_000));
    expect(rotated.values.get(SESSION_COOKIE_NAME)?.value).not.toBe(renewedCookie.value);
  });

  it("writes the __Host- cookie over https", async () => {
    const jar = new Jar();
    const data = session({ issuedAt: Date.now(), lastSeenAt: Date.now() });
    await writeSession(jar, data, settings([SECRET_A], true));
    expect([...jar.values.keys()]).toEqual(["__Host-gatehouse_session"]);
    expect(jar.values.get("__Host-gatehouse_session")?.options.secure).toBe(true);
    expect(await readSession(jar, settings([SECRET_A], true))).toEqual(data);
  });

  it("seals with an expiry at the absolute timeout", async () => {
    const now = Date.now();
    const sealed = await sealSession(
      session({ issuedAt: now - HOUR, lastSeenAt: now }),
      settings([SECRET_A]),
      new Date(now),
    );
    // Iron's format: Fe26.2*<password id>*<salt>*<iv>*<data>*<expiration ms>*<hmac salt>*<hmac>~2
    const expiration = Number(sealed.split("*")[5]);
    expect(Math.abs(expiration - (now + 11 * HOUR))).toBeLessThan(2000);
    await expect(
      sealSession(session({ issuedAt: now - 12 * HOUR }), settings([SECRET_A]), new Date(now)),
    ).rejects.toThrow(/absolute expiry/);
  });

  it("reads nothing from a forged, altered, foreign or malformed value", async () => {
    const data = session({ issuedAt: Date.now(), lastSeenAt: Date.now() });
    const sealed = await sealSession(data, settings([SECRET_A]));
    const flipped = sealed.slice(0, 60) + (sealed[60] === "A" ? "B" : "A") + sealed.slice(61);
    expect(await unsealSession(flipped, settings([SECRET_A]))).toBeNull();
    expect(await unsealSession(sealed, settings([SECRET_C]))).toBeNull();
    expect(await unsealSession("not a seal", settings([SECRET_A]))).toBeNull();
    expect(await unsealSession("Fe26.2*1*x*y*z*1*a*b~2", settings([SECRET_A]))).toBeNull();
    expect(await unsealSession(undefined, settings([SECRET_A]))).toBeNull();
    expect(await unsealSession("", settings([SECRET_A]))).toBeNull();
  });

  it("remembers opened seals per set of secrets, handing out copies, and never opens one for other secrets", async () => {
    const data = session({ issuedAt: Date.now(), lastSeenAt: Date.now() });
    const ours = settings([SECRET_A]);
    const sealed = await sealSession(data, ours);
    const first = await unsealSession(sealed, ours);
    expect(first).toEqual(data);
    first!.userId = "changed by a caller";
    expect(await unsealSession(sealed, ours)).toEqual(data); // remembered, and not the caller's object
    expect(await unsealSession(sealed, settings([SECRET_C]))).toBeNull(); // other secrets: opened afresh, refused
  });

  it("reads nothing from a value sealed with our secret that is not session data", async () => {
    const { sealData } = await import("iron-session");
    const ours = await sealSession(session({ issuedAt: Date.now(), lastSeenAt: Date.now() }), settings([SECRET_A]));
    const passwordId = ours.split("*")[1] ?? "";
    const junk = await sealData({ userId: 42 }, { password: { [passwordId]: SECRET_A } });
    expect(await unsealSession(junk, settings([SECRET_A]))).toBeNull();
  });

  describe("secret rotation (newest first)", () => {
    it("seals with the newest secret and opens cookies sealed with any listed one", async () => {
      const data = session({ issuedAt: Date.now(), lastSeenAt: Date.now() });
      const underA = await sealSession(data, settings([SECRET_A]));
      const underBA = await sealSession(data, settings([SECRET_B, SECRET_A]));
      expect(await unsealSession(underA, settings([SECRET_B, SECRET_A]))).toEqual(data);
      expect(await unsealSession(underBA, settings([SECRET_B]))).toEqual(data); // sealed with B, the newest
      expect(await unsealSession(underBA, settings([SECRET_A]))).toBeNull();
    });

    it("keeps cookies of a still-listed secret valid when the oldest is dropped", async () => {
      const data = session({ issuedAt: Date.now(), lastSeenAt: Date.now() });
      const underB = await sealSession(data, settings([SECRET_B, SECRET_A]));
      expect(await unsealSession(underB, settings([SECRET_C, SECRET_B]))).toEqual(data);
      expect(await unsealSession(underB, settings([SECRET_C]))).toBeNull();
    });
  });
});

describe("authenticateSession against the store: a copied cookie replayed later", () => {
  let dir: string;
  let store: Store;
  let admin: User;
  let alice: User;
  const s = settings([SECRET_A]);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "gatehouse-session-"));
    store = await openDb(parseDatabaseUrl(path.join(dir, "test.db")));
    admin = await createUser(
      store.db,
      { email: "root@example.com", name: "Root", role: "admin", password: "correct horse battery" },
      fast,
    );
    alice = await createUser(
      store.db,
      { email: "alice@example.com", name: "Alice", role: "editor", password: "correct horse battery" },
      fast,
    );
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function signIn(user: User): Promise<Jar> {
    const jar = new Jar();
    await writeSession(jar, newSession(user), s);
    return jar;
  }

  it("accepts the cookie of a signed-in user and returns him", async () => {
    const jar = await signIn(alice);
    const result = await authenticateSession(store.db, jar, s);
    expect(result).toMatchObject({ ok: true, user: { id: alice.id, role: "editor" }, session: { userId: alice.id } });
  });

  it("refuses without a cookie", async () => {
    expect(await authenticateSession(store.db, new Jar(), s)).toEqual({ ok: false, reason: "missing" });
  });

  async function current(user: User): Promise<User> {
    const found = await getUserById(store.db, user.id);
    if (!found) throw new Error("user vanished");
    return found;
  }

  it("refuses a copy kept from before logout (which bumps the version); a new sign-in works", async () => {
    const jar = await signIn(alice);
    const stolen = jar.copy();
    await revokeSessions(store.db, alice.id);
    clearSession(jar, s);
    expect(await authenticateSession(store.db, stolen, s)).toEqual({ ok: false, reason: "revoked" });
    expect(await authenticateSession(store.db, jar, s)).toEqual({ ok: false, reason: "missing" });
    expect((await authenticateSession(store.db, await signIn(await current(alice)), s)).ok).toBe(true);
  });

  it("refuses a copy kept from before the user was disabled", async () => {
    const stolen = (await signIn(alice)).copy();
    await updateUser(store.db, alice.id, { disabled: true });
    expect(await authenticateSession(store.db, stolen, s)).toEqual({ ok: false, reason: "disabled" });
    await updateUser(store.db, alice.id, { disabled: false });
    // Enabling him again does not revive the old cookie.
    expect(await authenticateSession(store.db, stolen, s)).toEqual({ ok: false, reason: "revoked" });
  });

  it("refuses a copy kept from before a password change or a role change", async () => {
    const beforePassword = (await signIn(alice)).copy();
    await updateUser(store.db, alice.id, { password: "a brand new password" }, fast);
    expect(await authenticateSession(store.db, beforePassword, s)).toEqual({ ok: false, reason: "revoked" });

    const beforeRole = await signIn(await current(alice));
    expect((await authenticateSession(store.db, beforeRole, s)).ok).toBe(true);
    await updateUser(store.db, alice.id, { role: "viewer" });
    expect(await authenticateSession(store.db, beforeRole, s)).toEqual({ ok: false, reason: "revoked" });
  });

  it("does not end other users' sessions", async () => {
    const adminJar = await signIn(admin);
    await revokeSessions(store.db, alice.id);
    await updateUser(store.db, alice.id, { disabled: true });
    expect((await authenticateSession(store.db, adminJar, s)).ok).toBe(true);
  });

  it("applies the idle and absolute timeouts at the time given", async () => {
    const signedInAt = Date.now();
    const jar = new Jar();
    await writeSession(jar, newSession(alice, new Date(signedInAt)), s, new Date(signedInAt));
    expect(await authenticateSession(store.db, jar, s, new Date(signedInAt + 2 * HOUR))).toEqual({
      ok: false,
      reason: "expired_idle",
    });

    // Kept busy: renewed 11 hours in, it still ends 12 hours after sign-in.
    const renewedAt = new Date(signedInAt + 11 * HOUR);
    await writeSession(jar, touchSession(newSession(alice, new Date(signedInAt)), renewedAt), s, renewedAt);
    expect(await authenticateSession(store.db, jar, s, new Date(signedInAt + 12 * HOUR - 1))).toMatchObject({
      ok: true,
    });
    expect(await authenticateSession(store.db, jar, s, new Date(signedInAt + 12 * HOUR))).toEqual({
      ok: false,
      reason: "expired_absolute",
    });
  });

  it("refuses a cookie sealed under a secret that is no longer configured", async () => {
    const jar = await signIn(alice);
    expect(await authenticateSession(store.db, jar, settings([SECRET_B]))).toEqual({ ok: false, reason: "missing" });
  });
});
