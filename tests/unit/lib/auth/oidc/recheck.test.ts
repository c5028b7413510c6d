// The re-check of single sign-on sessions (lib/auth/oidc/recheck.ts) against a real OpenID provider and a real
// SQLite store, with the clock passed in: what happens before the check is due, when the provider vouches again
// (and the groups changed), when it refuses, when it does not answer (one more interval, then the end), and without
// a refresh token. The same over HTTP, waiting for the change: tests/http/api/auth/oidc.recheck.test.ts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { authorizationRequest, exchangeCode, forgetProviderConfig, providerConfig } from "@/lib/auth/oidc/provider";
import { checkSsoSession } from "@/lib/auth/oidc/recheck";
import { createSsoSession, getSsoSession } from "@/lib/auth/oidc/sessions";
import { signInWithClaims } from "@/lib/auth/oidc/sign-in";
import type { SessionData } from "@/lib/auth/session";
import { getUserById, updateUser, type User } from "@/lib/auth/users";
import type { OidcSettings } from "@/lib/config/oidc";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";

import {
  ADMIN_GROUP,
  callbackUrlFor,
  IDP_USERS,
  startTestProvider,
  UNMAPPED_GROUP,
  type TestIdpUser,
  type TestProvider,
} from "@/tests/support/oidc-provider";

const REDIRECT = "http://127.0.0.1:9/api/auth/oidc/callback";
const SECRETS = ["recheck-test-session-secret-0123456789abcdef"];
const MINUTE = 60_000;

let idp: TestProvider;
/** Keeps profile, email and groups out of its ID tokens (userinfo only), and issues refresh tokens. */
let userinfoIdp: TestProvider;
let store: Store;
let dir: string;
let settings: OidcSettings;
let userinfoSettings: OidcSettings;

const settingsFor = (provider: TestProvider): OidcSettings => ({
  issuer: provider.issuer,
  clientId: provider.clientId,
  clientSecret: provider.clientSecret,
  scopes: null,
  roleClaim: "groups",
  roleMap: [
    { group: ADMIN_GROUP, role: "admin" },
    { group: "portal-editors", role: "editor" },
  ],
  defaultRole: null,
  label: "Test IdP",
  recheckMs: MINUTE,
});

beforeAll(async () => {
  [idp, userinfoIdp] = await Promise.all([
    startTestProvider({ redirectUris: [REDIRECT] }),
    startTestProvider({ redirectUris: [REDIRECT], claimsInIdToken: false, refreshTokens: true }),
  ]);
  dir = await mkdtemp(path.join(tmpdir(), "gatehouse-recheck-"));
  store = await openDb(parseDatabaseUrl(path.join(dir, "store.db")));
  settings = settingsFor(idp);
  userinfoSettings = settingsFor(userinfoIdp);
});
afterAll(async () => {
  forgetProviderConfig();
  await store?.close();
  await idp?.close();
  await userinfoIdp?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await idp.start().catch(() => undefined); // a test may have left it down
});

let people = 0;
/** A new person at the provider, in these groups. */
function person(groups: string[], provider = idp): TestIdpUser {
  people += 1;
  const user = {
    sub: `recheck-sub-${people}`,
    login: `person${people}`,
    password: `password of person ${people}`,
    email: `person${people}@corp.test`,
    name: `Person ${people}`,
    groups,
  };
  provider.addUser(user);
  return user;
}

interface Signed {
  user: User;
  session: SessionData;
  signedInAt: number;
  settings: OidcSettings;
}

/** A real sign-in at the provider, then what the callback does: the user, an sso_sessions row, the session. */
async function signIn(
  who: TestIdpUser,
  { refreshToken = true, settings: signInSettings = settings } = {},
): Promise<Signed> {
  const settings = signInSettings;
  const config = await providerConfig(settings);
  const request = await authorizationRequest(settings, config, { redirectUri: REDIRECT });
  const tokens = await exchangeCode(settings, config, await callbackUrlFor(request.url, who, REDIRECT), request);
  const signedInAt = Date.now();
  const result = await signInWithClaims(store.db, settings, tokens.claims, new Date(signedInAt));
  if (!result.ok) throw new Error(`sign-in refused: ${result.refusal.failure}`);
  const ssoSessionId = await createSsoSession(store.db, SECRETS, {
    userId: result.user.id,
    issuer: settings.issuer,
    subject: who.sub,
    refreshToken: refreshToken ? tokens.refreshToken : null,
    idToken: tokens.idToken,
    now: signedInAt,
    expiresAt: signedInAt + 12 * 60 * MINUTE,
  });
  return {
    user: result.user,
    session: {
      userId: result.user.id,
      sessionVersion: result.user.sessionVersion,
      issuedAt: signedInAt,
      lastSeenAt: signedInAt,
      ssoSessionId,
    },
    signedInAt,
    settings,
  };
}

const check = (signed: Signed, at: number, { page = false, user = signed.user } = {}) =>
  checkSsoSession({
    db: store.db,
    config: { session: { secrets: SECRETS } },
    user,
    session: signed.session,
    page,
    settings: signed.settings,
    now: at,
  });

const auditRows = async (userId: string) =>
  (await store.db.selectFrom("audit_log").selectAll().where("target_id", "=", userId).orderBy("id").execute()).map(
    (row) => ({
      action: row.action,
      outcome: row.outcome,
      detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
    }),
  );

describe("a single sign-on session", () => {
  it("goes on without asking the provider until the check is due", async () => {
    const signed = await signIn(person([ADMIN_GROUP]));
    const before = idp.refreshGrants();
    await expect(check(signed, signed.signedInAt + MINUTE - 1)).resolves.toMatchObject({ ok: true });
    expect(idp.refreshGrants()).toBe(before);
  });

  it("is re-checked with the refresh token when due: still in the group, it goes on, checked anew", async () => {
    const signed = await signIn(person([ADMIN_GROUP]));
    const before = idp.refreshGrants();
    const at = signed.signedInAt + MINUTE;
    await expect(check(signed, at)).resolves.toMatchObject({ ok: true, user: { role: "admin" } });
    expect(idp.refreshGrants()).toBe(before + 1);
    const row = await getSsoSession(store.db, SECRETS, signed.session.ssoSessionId!);
    expect(row).toMatchObject({ checkedAt: at, leaseUntil: null });
    // Checked now: the next minute goes on without the provider.
    await expect(check(signed, at + MINUTE - 1)).resolves.toMatchObject({ ok: true });
    expect(idp.refreshGrants()).toBe(before + 1);
  });

  it("follows the groups: a role the provider now gives is taken, and audited", async () => {
    const who = person(["portal-editors"]);
    const signed = await signIn(who);
    expect(signed.user.role).toBe("editor");
    idp.setGroups(who.login, [ADMIN_GROUP]);
    await expect(check(signed, signed.signedInAt + MINUTE)).resolves.toMatchObject({
      ok: true,
      user: { role: "admin" },
    });
    expect((await getUserById(store.db, signed.user.id))?.role).toBe("admin");
    expect(await auditRows(signed.user.id)).toContainEqual({
      action: "user.sso_role",
      outcome: "success",
      detail: expect.objectContaining({ from: "editor", to: "admin", phase: "recheck" }),
    });
  });

  it("ends when the groups no longer give a role: every SSO session of the user, audited with the claim", async () => {
    const who = person([ADMIN_GROUP]);
    const signed = await signIn(who);
    const other = await signIn(who);
    idp.setGroups(who.login, [UNMAPPED_GROUP]);
    const result = await check(signed, signed.signedInAt + MINUTE);
    expect(result).toMatchObject({ ok: false, failure: "sso_no_role", restart: "interactive", clearCookie: false });
    const why = `Your access was re-checked with Test IdP: your groups there (${UNMAPPED_GROUP}) no longer give a role in Gatehouse, so your session has ended. Ask an administrator which group you need.`;
    expect(!result.ok && result.message).toBe(why);
    // His other session ends at its next request, whenever its own check is due, and says the same, not "disabled".
    const otherResult = await check(other, other.signedInAt + 1);
    expect(otherResult).toMatchObject({ ok: false, failure: "sso_no_role", restart: "interactive" });
    expect(!otherResult.ok && otherResult.message).toBe(why);
    // Its tokens are gone: only the reason stays, until the session's absolute end.
    expect(await getSsoSession(store.db, SECRETS, other.session.ssoSessionId!)).toMatchObject({
      refreshToken: null,
      idToken: null,
      endedNoRole: { claim: "groups", values: [UNMAPPED_GROUP] },
    });
    expect(await auditRows(signed.user.id)).toContainEqual({
      action: "auth.sso_refused",
      outcome: "denied",
      detail: expect.objectContaining({
        phase: "recheck",
        reason: "no_role",
        claim: "groups",
        claim_found: true,
        values: [UNMAPPED_GROUP],
      }),
    });
  });

  it("a provider that names no group for him: the sentence says so, with the claim read", async () => {
    const who = person([ADMIN_GROUP]);
    const signed = await signIn(who);
    idp.setGroups(who.login, []);
    const result = await check(signed, signed.signedInAt + MINUTE);
    expect(!result.ok && result.message).toBe(
      'Your access was re-checked with Test IdP: it names no group for you any more (claim "groups"), so your session has ended. Ask an administrator which group you need.',
    );
  });

  it("keeps a pinned role whatever the groups say", async () => {
    const who = person([ADMIN_GROUP]);
    const signed = await signIn(who);
    const pinned = await updateUser(store.db, signed.user.id, { role: "viewer" });
    expect(pinned.rolePinned).toBe(true);
    idp.setGroups(who.login, [UNMAPPED_GROUP]);
    const session = { ...signed, session: { ...signed.session, sessionVersion: pinned.sessionVersion } };
    await expect(check(session, signed.signedInAt + MINUTE, { user: pinned })).resolves.toMatchObject({
      ok: true,
      user: { role: "viewer" },
    });
  });

  it("ends when the provider refuses the refresh (the user was disabled there)", async () => {
    const who = person([ADMIN_GROUP]);
    const signed = await signIn(who);
    idp.setDisabled(who.login, true);
    await expect(check(signed, signed.signedInAt + MINUTE)).resolves.toMatchObject({
      ok: false,
      failure: "sso_ended",
      restart: "interactive",
    });
    expect(await getSsoSession(store.db, SECRETS, signed.session.ssoSessionId!)).toBeNull();
    expect(await auditRows(signed.user.id)).toContainEqual({
      action: "auth.sso_refused",
      outcome: "denied",
      detail: expect.objectContaining({ phase: "recheck", reason: "ended" }),
    });
  });

  it("is given one more interval when the provider does not answer, asking again after a back-off, then ends", async () => {
    const signed = await signIn(person([ADMIN_GROUP]));
    await idp.stop();
    const due = signed.signedInAt + MINUTE;
    await expect(check(signed, due)).resolves.toMatchObject({ ok: true });
    // The back-off: a quarter of the interval here (at most a minute).
    expect((await getSsoSession(store.db, SECRETS, signed.session.ssoSessionId!))?.leaseUntil).toBe(due + MINUTE / 4);
    // Within it, the provider is not asked again, and the session goes on; after it, asked again, still in grace.
    await expect(check(signed, due + 10_000)).resolves.toMatchObject({ ok: true });
    await expect(check(signed, due + 30_000)).resolves.toMatchObject({ ok: true });
    expect((await getSsoSession(store.db, SECRETS, signed.session.ssoSessionId!))?.leaseUntil).toBe(
      due + 30_000 + MINUTE / 4,
    );
    // A whole interval after the check was due, still no answer: the session ends.
    const result = await check(signed, due + MINUTE + 1);
    expect(result).toMatchObject({ ok: false, failure: "sso_unconfirmed", restart: "interactive" });
    expect(!result.ok && result.message).toContain("Test IdP, which is not answering");
    expect(await auditRows(signed.user.id)).toContainEqual({
      action: "auth.sso_refused",
      outcome: "denied",
      detail: expect.objectContaining({ reason: "unconfirmed" }),
    });
  });

  it("comes back to normal when the provider answers again within the interval", async () => {
    const signed = await signIn(person([ADMIN_GROUP]));
    await idp.stop();
    const due = signed.signedInAt + MINUTE;
    await expect(check(signed, due)).resolves.toMatchObject({ ok: true });
    await idp.start();
    await expect(check(signed, due + 20_000)).resolves.toMatchObject({ ok: true });
    expect(await getSsoSession(store.db, SECRETS, signed.session.ssoSessionId!)).toMatchObject({
      checkedAt: due + 20_000,
      leaseUntil: null,
    });
  });

  it("without a refresh token: a page goes through a silent sign-in; the API goes on one more interval, then asks for a reload", async () => {
    const signed = await signIn(person([ADMIN_GROUP]), { refreshToken: false });
    const due = signed.signedInAt + MINUTE;
    await expect(check(signed, due, { page: true })).resolves.toMatchObject({
      ok: false,
      restart: "silent",
      clearCookie: false,
    });
    await expect(check(signed, due)).resolves.toMatchObject({ ok: true });
    const late = await check(signed, due + MINUTE);
    expect(late).toMatchObject({ ok: false, restart: "silent", clearCookie: false });
    expect(!late.ok && late.message).toBe(
      "Your sign-in must be confirmed again with Test IdP: reload the page to continue.",
    );
  });

  it("ends when single sign-on was turned off", async () => {
    const signed = await signIn(person([ADMIN_GROUP]));
    const result = await checkSsoSession({
      db: store.db,
      config: { session: { secrets: SECRETS } },
      user: signed.user,
      session: signed.session,
      page: true,
      settings: null,
    });
    expect(result).toMatchObject({ ok: false, failure: "sso_off", restart: "login" });
  });

  it("ends when its row is gone, or belongs to someone else", async () => {
    const signed = await signIn(person([ADMIN_GROUP]));
    const stranger = await signIn(IDP_USERS.admin);
    await expect(
      check(
        { ...signed, session: { ...signed.session, ssoSessionId: stranger.session.ssoSessionId } },
        signed.signedInAt,
      ),
    ).resolves.toMatchObject({ ok: false, failure: "sso_ended" });
    await expect(
      check({ ...signed, session: { ...signed.session, ssoSessionId: "gone" } }, signed.signedInAt),
    ).resolves.toMatchObject({ ok: false, failure: "sso_ended" });
  });

  it("leaves password sessions alone", async () => {
    const signed = await signIn(person([ADMIN_GROUP]));
    const { ssoSessionId: _, ...password } = signed.session;
    await expect(check({ ...signed, session: password }, signed.signedInAt + 10 * MINUTE)).resolves.toMatchObject({
      ok: true,
    });
  });
});

describe("with a provider that keeps the groups out of its ID tokens and issues refresh tokens", () => {
  // Its refreshed ID token has no groups either: the re-check reads them where the sign-in did, from userinfo.
  it("a user still in the group goes on after the re-check, and nothing is refused", async () => {
    const signed = await signIn(person([ADMIN_GROUP], userinfoIdp), { settings: userinfoSettings });
    expect(signed.user.role).toBe("admin");
    const before = userinfoIdp.refreshGrants();
    await expect(check(signed, signed.signedInAt + MINUTE)).resolves.toMatchObject({
      ok: true,
      user: { role: "admin" },
    });
    expect(userinfoIdp.refreshGrants()).toBe(before + 1);
    expect(await getSsoSession(store.db, SECRETS, signed.session.ssoSessionId!)).toMatchObject({
      checkedAt: signed.signedInAt + MINUTE,
    });
    expect((await auditRows(signed.user.id)).map((row) => row.action)).not.toContain("auth.sso_refused");
  });

  it("a promotion at the provider is applied at the re-check", async () => {
    const who = person(["portal-editors"], userinfoIdp);
    const signed = await signIn(who, { settings: userinfoSettings });
    expect(signed.user.role).toBe("editor");
    userinfoIdp.setGroups(who.login, [ADMIN_GROUP]);
    await expect(check(signed, signed.signedInAt + MINUTE)).resolves.toMatchObject({
      ok: true,
      user: { role: "admin" },
    });
    expect(await auditRows(signed.user.id)).toContainEqual({
      action: "user.sso_role",
      outcome: "success",
      detail: expect.objectContaining({ from: "editor", to: "admin", phase: "recheck" }),
    });
  });

  it("a removal from the groups still ends the session, naming the groups read", async () => {
    const who = person([ADMIN_GROUP], userinfoIdp);
    const signed = await signIn(who, { settings: userinfoSettings });
    userinfoIdp.setGroups(who.login, [UNMAPPED_GROUP]);
    const result = await check(signed, signed.signedInAt + MINUTE);
    expect(result).toMatchObject({ ok: false, failure: "sso_no_role" });
    expect(!result.ok && result.message).toContain(
      `your groups there (${UNMAPPED_GROUP}) no longer give a role in Gatehouse`,
    );
    expect(await auditRows(signed.user.id)).toContainEqual({
      action: "auth.sso_refused",
      outcome: "denied",
      detail: expect.objectContaining({
        phase: "recheck",
        reason: "no_role",
        claim_found: true,
        values: [UNMAPPED_GROUP],
      }),
    });
  });
});
