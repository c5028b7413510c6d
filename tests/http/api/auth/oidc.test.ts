// Single sign-on over real HTTP: the built portal (next start) and a real OpenID provider (oidc-provider, in this
// process) on loopback, the redirect flow walked as a browser does (tests/support/oidc-provider.ts). What a person
// meets (the admin group, no mapped group, a local account with his email, roles that follow the groups unless
// pinned, sign-out at the provider too) and what an attacker tries (a tampered state, a replayed code, a callback
// without a sign-in, an ID token for another audience), with nothing secret in any answer, log line or the store.
import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import {
  ADMIN_GROUP,
  IDP_USERS,
  SignInBrowser,
  UNMAPPED_GROUP,
  walkSsoSignIn,
  type TestIdpUser,
} from "@/tests/support/oidc-provider";
import { ROOT, usersCli } from "@/tests/support/processes";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const {
  idp,
  gateway,
  client: admin,
} = setUpGateway({
  sso: true,
  env: { OIDC_ROLE_MAP: `${ADMIN_GROUP}=admin,portal-editors=editor,staff=viewer` },
  signIn: "admin",
});

/** What a page shows as text: tags dropped, entities read. */
const pageText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

let people = 0;
/** A new person at the provider (each test its own, so none depends on another's sign-ins or consents). */
function person(groups: string[], over: Partial<TestIdpUser> = {}): TestIdpUser {
  people += 1;
  const user = {
    sub: `http-sub-${people}`,
    login: `http${people}`,
    password: `password of http person ${people}`,
    email: `http${people}@corp.test`,
    name: `Http Person ${people}`,
    groups,
    ...over,
  };
  idp.addUser(user);
  return user;
}

const sessionCookieSet = (headers: Headers) =>
  headers.getSetCookie().some((line) => /^gatehouse_session=[^;]/.test(line));

async function usersByEmail(): Promise<Map<string, Record<string, unknown>>> {
  const res = await admin.request("/api/admin/users");
  return new Map((res.json.data as Array<Record<string, unknown>>).map((user) => [user.email as string, user]));
}

async function audit(action: string): Promise<Array<Record<string, unknown>>> {
  return (await admin.request(`/api/admin/audit?action=${action}&per_page=100`)).json.data;
}

describe("signing in with the provider", () => {
  it("the sign-in page offers the provider first, then the password form", async () => {
    const page = await gateway.request("/login");
    expect(page.status).toBe(200);
    const text = pageText(page.text);
    expect(text).toMatch(
      /Sign in to Gatehouse Sign in with Test IdP or with your email and password .*Email .*Password/,
    );
    expect(page.text.indexOf('href="/api/auth/oidc/start"')).toBeLessThan(page.text.indexOf('name="password"'));
  });

  it("the start sends the browser to the provider with PKCE (S256), state and nonce, kept in a sealed cookie", async () => {
    const browser = new SignInBrowser();
    const start = await browser.request(`${gateway.url}/api/auth/oidc/start?next=%2Freports%3Fresult%3Dbad`);
    expect(start.status).toBe(302);
    const url = new URL(start.location!);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: "gatehouse",
      response_type: "code",
      redirect_uri: `${gateway.url}/api/auth/oidc/callback`,
      scope: "openid email profile groups",
      code_challenge_method: "S256",
    });
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = start.headers.getSetCookie().find((line) => line.startsWith("gatehouse_sso="))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=lax/i);
    expect(cookie).toMatch(/; Max-Age=600/i);
    expect(cookie).toMatch(/; Path=\//i);
    // Sealed: neither the state nor the nonce reads in it.
    expect(cookie).not.toContain(url.searchParams.get("state")!);
    expect(cookie).not.toContain(url.searchParams.get("nonce")!);
  });

  it("50 anonymous starts, one after another and all at once, cost the provider at most one discovery per 5 s", async () => {
    const start = () => fetch(`${gateway.url}/api/auth/oidc/start`, { redirect: "manual" });
    const answers = [];
    const before = idp.discoveryRequests();
    const started = Date.now();
    for (let i = 0; i < 10; i++) answers.push(await start());
    answers.push(...(await Promise.all(Array.from({ length: 40 }, start))));
    const elapsedMs = Date.now() - started;
    for (const answer of answers) expect(new URL(answer.headers.get("location")!).origin).toBe(idp.issuer);
    // A start checks that the provider answers, but at most once per 5 s (START_CHECK_MS), whatever the traffic;
    // starts at the same time share one question.
    expect(idp.discoveryRequests() - before).toBeLessThanOrEqual(1 + Math.ceil(elapsedMs / 5000));
  });

  it("a user in the admin group becomes admin, lands where he was going, and shows his provider and last sign-in", async () => {
    const browser = new SignInBrowser();
    const { callback, answer } = await walkSsoSignIn(browser, gateway.url, IDP_USERS.admin, {
      next: "/reports?result=bad",
    });
    expect(callback).toMatch(/\?code=[^&]+&state=/);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${gateway.url}/reports?result=bad`);
    expect(sessionCookieSet(answer.headers)).toBe(true);
    // The transaction cookie is used once.
    expect(answer.headers.getSetCookie().find((line) => line.startsWith("gatehouse_sso="))).toMatch(
      /^gatehouse_sso=;.*Max-Age=0/i,
    );

    const me = await browser.request(`${gateway.url}/api/auth/me`);
    expect(me.status).toBe(200);
    expect(JSON.parse(me.text).data.user).toMatchObject({
      email: "ada@corp.test",
      name: "Ada Lovelace",
      role: "admin",
    });
    const page = await browser.request(`${gateway.url}/admin/users`);
    expect(page.status).toBe(200);

    const ada = (await usersByEmail()).get("ada@corp.test")!;
    expect(ada).toMatchObject({
      role: "admin",
      role_pinned: false,
      identity: { issuer: idp.issuer, subject: IDP_USERS.admin.sub },
      disabled: false,
    });
    expect(Date.parse(ada.last_sign_in_at as string)).toBeGreaterThan(Date.now() - 60_000);
    const signIns = await audit("auth.sso_login");
    expect(signIns.find((row) => row.user_email === "ada@corp.test")).toMatchObject({
      outcome: "success",
      summary: "Signed in with Test IdP as admin; the account was created at this first sign-in.",
      target: { type: "user", id: ada.id },
    });
  });

  it("a later sign-in finds him by the provider's sub, not by email: a new email at the provider follows", async () => {
    const who = person(["staff"]);
    await walkSsoSignIn(new SignInBrowser(), gateway.url, who);
    const first = (await usersByEmail()).get(who.email)!;
    idp.addUser({ ...who, email: `renamed.${who.email}` });
    const { answer } = await walkSsoSignIn(new SignInBrowser(), gateway.url, who);
    expect(answer.location).toBe(`${gateway.url}/`);
    const users = await usersByEmail();
    expect(users.has(who.email)).toBe(false);
    expect(users.get(`renamed.${who.email}`)).toMatchObject({ id: first.id, role: "viewer" });
  });

  it("a user in no mapped group is refused with a page naming the claim read; no account is made; audited", async () => {
    const { answer } = await walkSsoSignIn(new SignInBrowser(), gateway.url, IDP_USERS.outsider, { next: "/reports" });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${gateway.url}/login?error=sso_no_role&next=%2Freports`);
    expect(sessionCookieSet(answer.headers)).toBe(false);
    const page = await gateway.request("/login?error=sso_no_role&next=%2Freports");
    const text = pageText(page.text);
    expect(text).toContain("No access to Gatehouse");
    expect(text).toContain(
      'You signed in with Test IdP, but none of your groups gives you a role in Gatehouse: it read the claim "groups" and found no group it maps to a role.',
    );
    expect(text).toContain("Sign in with another Test IdP account");
    expect(page.text).toContain('href="/api/auth/oidc/start?next=%2Freports&amp;prompt=login"');
    expect((await usersByEmail()).has(IDP_USERS.outsider.email)).toBe(false);
    const refusal = (await audit("auth.sso_refused")).find((row) => row.user_email === IDP_USERS.outsider.email);
    expect(refusal).toMatchObject({
      outcome: "denied",
      summary: 'Refused: no value of the claim "groups" maps to a role.',
      detail: expect.objectContaining({ values: [UNMAPPED_GROUP], subject: IDP_USERS.outsider.sub }),
    });
  });

  it("an existing password account with the same email is not taken over: refused and unchanged, until the operator links them", async () => {
    const email = "mallory@corp.test";
    const created = await admin.request("/api/admin/users", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email,
        name: "Local Mallory",
        role: "viewer",
        password: "a long local password for mallory",
      }),
    });
    expect(created.status).toBe(201);
    const who = person([ADMIN_GROUP], { email });
    const { answer } = await walkSsoSignIn(new SignInBrowser(), gateway.url, who);
    expect(answer.location).toBe(`${gateway.url}/login?error=sso_email_taken`);
    expect(sessionCookieSet(answer.headers)).toBe(false);
    expect(pageText((await gateway.request("/login?error=sso_email_taken")).text)).toContain(
      "Gatehouse already has an account with your email address that signs in with a password, and Test IdP does not take it over. Ask an administrator to sort it out.",
    );
    expect((await usersByEmail()).get(email)).toMatchObject({
      id: created.json.data.id,
      name: "Local Mallory",
      role: "viewer",
      identity: null,
    });
    // The local account still signs in with its password, and is still a viewer.
    const local = await gateway.signIn({ email, password: "a long local password for mallory" });
    expect(local.user.role).toBe("viewer");
    expect((await audit("auth.sso_refused")).find((row) => row.user_email === email)).toMatchObject({
      outcome: "denied",
      summary: `Refused: another Gatehouse account already has this email, and it is not taken over (to let this person in on that account: npm run users -- link-sso <email> ${who.sub}).`,
    });

    // The operator links them on purpose: the account then signs in with the provider only, its role from the groups.
    const cli = usersCli(ROOT, ["link-sso", email, who.sub], { ...gateway.env });
    expect(await cli.exited, cli.stderr()).toBe(0);
    expect(cli.stdout()).toBe(
      `${email} now signs in with Test IdP as ${who.sub}; its password was removed and its sessions ended. Its role comes from the groups at its next sign-in.\n`,
    );
    expect((await local.request("/api/auth/me")).status).toBe(401);
    const browser = new SignInBrowser();
    expect((await walkSsoSignIn(browser, gateway.url, who)).answer.location).toBe(`${gateway.url}/`);
    expect(JSON.parse((await browser.request(`${gateway.url}/api/auth/me`)).text).data.user).toMatchObject({
      id: created.json.data.id,
      role: "admin",
    });
    const password = await gateway.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1" },
      body: JSON.stringify({ email, password: "a long local password for mallory" }),
    });
    expect(password.status).toBe(401);
    const listed = usersCli(ROOT, ["list"], { ...gateway.env });
    expect(await listed.exited).toBe(0);
    // The provider's name and role now; and how he signs in.
    expect(
      listed
        .stdout()
        .split("\n")
        .find((line) => line.startsWith(email))
        ?.split(/\s{2,}/),
    ).toEqual([email, who.name, "admin", "active", "sso", expect.stringMatching(/^\d{4}-\d\d-\d\d$/)]);
    // Linking twice is refused in a sentence.
    const again = usersCli(ROOT, ["link-sso", email, who.sub], { ...gateway.env });
    expect(await again.exited).toBe(1);
    expect(again.stderr()).toBe(
      `users: ${email} already signs in with single sign-on (as ${who.sub} at ${idp.issuer})\n`,
    );
    // Three runs of the users CLI (tsx compiles each): past vitest's 20 s on a loaded 2-core machine.
  }, 60_000);

  it("the role follows the groups at every sign-in, unless an admin pins it; each change is audited", async () => {
    const who = person(["portal-editors"]);
    const signInRole = async () => {
      const browser = new SignInBrowser();
      await walkSsoSignIn(browser, gateway.url, who);
      return JSON.parse((await browser.request(`${gateway.url}/api/auth/me`)).text).data.user.role as string;
    };
    expect(await signInRole()).toBe("editor");
    idp.setGroups(who.login, ["staff", ADMIN_GROUP]);
    expect(await signInRole()).toBe("admin");
    const id = (await usersByEmail()).get(who.email)!.id as string;
    expect((await audit("user.sso_role")).find((row) => (row.target as { id: string }).id === id)).toMatchObject({
      summary: "Role changed from editor to admin by the provider's groups (at sign-in).",
    });

    // An admin sets the role by hand: it is pinned, and sign-ins keep it.
    const pinned = await admin.request(`/api/admin/users/${id}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ role: "support" }),
    });
    expect(pinned.json.data).toMatchObject({ role: "support", role_pinned: true });
    expect(await signInRole()).toBe("support");
    // Unpinned: the groups decide again at the next sign-in.
    const unpinned = await admin.request(`/api/admin/users/${id}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ role_pinned: false }),
    });
    expect(unpinned.json.data).toMatchObject({ role: "support", role_pinned: false });
    expect(await signInRole()).toBe("admin");
    const changes = (await audit("user.update"))
      .filter((row) => (row.target as { id: string }).id === id)
      .map((row) => row.summary);
    // Newest first.
    expect(changes).toEqual(["Role unpinned (the provider's groups decide).", "Role set to support and role pinned."]);
  });

  it("an SSO user has no password: a password sign-in as him fails, and an admin cannot set one", async () => {
    const refused = await gateway.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1" },
      body: JSON.stringify({ email: "ada@corp.test", password: IDP_USERS.admin.password }),
    });
    expect(refused.status).toBe(401);
    const id = (await usersByEmail()).get("ada@corp.test")!.id as string;
    const res = await admin.request(`/api/admin/users/${id}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ password: "a new password nobody can guess 42" }),
    });
    expect(res.status).toBe(400);
    expect(res.json.error.fields.password).toBe(
      "Ada@corp.test signs in with single sign-on, so a password cannot be set for this account.",
    );
  });
});

describe("what the provider or an attacker may send back", () => {
  it("a tampered state is refused, with one sentence and no session; the real answer still completes the sign-in", async () => {
    const browser = new SignInBrowser();
    let original = "";
    const { answer } = await walkSsoSignIn(browser, gateway.url, person([ADMIN_GROUP]), {
      tamper: (callback) => {
        original = callback.href;
        callback.searchParams.set("state", `${callback.searchParams.get("state")}x`);
        return callback;
      },
    });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${gateway.url}/login?error=sso_state`);
    expect(sessionCookieSet(answer.headers)).toBe(false);
    expect((await browser.request(`${gateway.url}/api/auth/me`)).status).toBe(401);
    // A forged answer does not cancel the sign-in in flight.
    expect((await browser.request(original)).location).toBe(`${gateway.url}/`);
    expect((await browser.request(`${gateway.url}/api/auth/me`)).status).toBe(200);
    expect(pageText((await gateway.request("/login?error=sso_state")).text)).toContain(
      "This sign-in does not match one started in this browser (it took more than 10 minutes, or another one started since). Start again from this page.",
    );
  });

  it("a replayed code is refused: by Gatehouse without the browser's sign-in, by the provider with a copy of it", async () => {
    const who = person([ADMIN_GROUP]);
    const browser = new SignInBrowser();
    let transaction = "";
    const { callback, answer } = await walkSsoSignIn(browser, gateway.url, who, {
      tamper: (url) => {
        transaction = browser.cookie(gateway.url, "gatehouse_sso")!;
        return url;
      },
    });
    expect(answer.location).toBe(`${gateway.url}/`);
    // The same browser loads the callback again: its sign-in was used up.
    expect((await browser.request(callback!)).location).toBe(`${gateway.url}/login?error=sso_state`);
    // An attacker with the callback URL and a copy of the transaction cookie: the provider refuses the used code.
    const attacker = new SignInBrowser();
    attacker.setCookie(gateway.url, "gatehouse_sso", transaction);
    const replay = await attacker.request(callback!);
    expect(replay.location).toBe(`${gateway.url}/login?error=sso_code_rejected`);
    expect(sessionCookieSet(replay.headers)).toBe(false);
    expect(pageText((await gateway.request("/login?error=sso_code_rejected")).text)).toContain(
      "Test IdP refused to finish this sign-in: its one-time code was already used or has expired. Start again.",
    );
    const line = gateway
      .logLines()
      .find(
        (l) => l.msg === "sso_sign_in_failed" && (l.detail as Record<string, unknown>)?.oauth_error === "invalid_grant",
      );
    expect(line).toMatchObject({ failure: "sso_code_rejected", detail: { phase: "token", http_status: 400 } });
  });

  it("denied consent says so in one sentence; nothing the provider wrote is shown", async () => {
    const { answer } = await walkSsoSignIn(new SignInBrowser(), gateway.url, person([ADMIN_GROUP]), {
      consent: "deny",
      next: "/items",
    });
    expect(answer.location).toBe(`${gateway.url}/login?error=sso_denied&next=%2Fitems`);
    const page = await gateway.request("/login?error=sso_denied&next=%2Fitems");
    expect(pageText(page.text)).toContain(
      "You did not allow Gatehouse to use your Test IdP account, so you are not signed in. To sign in, start again and allow it.",
    );
    expect(page.text).not.toContain("The user refused");
    expect(page.text).not.toContain("access_denied");
  });

  it("an ID token for another audience is refused, even signed by the provider's own key", async () => {
    idp.tamperIdTokens((claims) => ({ ...claims, aud: "another-application" }));
    try {
      const browser = new SignInBrowser();
      const { answer } = await walkSsoSignIn(browser, gateway.url, person([ADMIN_GROUP]));
      expect(answer.location).toBe(`${gateway.url}/login?error=sso_token_invalid`);
      expect(sessionCookieSet(answer.headers)).toBe(false);
      expect((await browser.request(`${gateway.url}/api/auth/me`)).status).toBe(401);
    } finally {
      idp.tamperIdTokens(null);
    }
    expect(pageText((await gateway.request("/login?error=sso_token_invalid")).text)).toContain(
      "Test IdP's answer could not be verified (it was meant for another application, or was changed on the way), so you are not signed in. Tell an administrator.",
    );
    const line = gateway.logLines().find((l) => l.msg === "sso_sign_in_failed" && l.failure === "sso_token_invalid");
    // The operator reads which claim did not match, and both values (the audience is not secret).
    expect(line).toMatchObject({
      level: "error",
      detail: {
        error_code: "OAUTH_JWT_CLAIM_COMPARISON_FAILED",
        claim: "aud",
        expected: idp.clientId,
        got: "another-application",
      },
    });
  });

  it("a callback nobody started, with a hostile query, gets one sentence and reflects nothing", async () => {
    const hostile =
      "?code=abc&state=def&error=%3Cscript%3Ealert(1)%3C%2Fscript%3E&error_description=%3Cimg%20src%3Dx%3E";
    const res = await gateway.request(`/api/auth/oidc/callback${hostile}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/login?error=sso_state");
    // A made-up error code on the page is no sentence and shows nothing.
    const page = await gateway.request("/login?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<script>alert");
    expect(page.text).not.toContain("Not signed in");
  });

  it("the start and the callback answer nothing but GET", async () => {
    for (const path of ["/api/auth/oidc/start", "/api/auth/oidc/callback"]) {
      const res = await gateway.request(path, { method: "POST", headers: { "X-CSRF": "1" } });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
    expect((await gateway.request("/api/auth/oidc/start?prompt=sometimes")).status).toBe(400);
  });
});

describe("signing out", () => {
  it("ends the Gatehouse session and the provider's: the next sign-in asks for the password again", async () => {
    const who = person([ADMIN_GROUP]);
    const browser = new SignInBrowser();
    await walkSsoSignIn(browser, gateway.url, who);
    const logout = await browser.request(`${gateway.url}/api/auth/logout`, {
      method: "POST",
      headers: { "X-CSRF": "1" },
    });
    expect(logout.status).toBe(200);
    const endSession = new URL(JSON.parse(logout.text).data.end_session_url);
    expect(endSession.origin + endSession.pathname).toBe(`${idp.issuer}/session/end`);
    expect(endSession.searchParams.get("post_logout_redirect_uri")).toBe(`${gateway.url}/login`);
    expect(endSession.searchParams.get("client_id")).toBe("gatehouse");
    expect(endSession.searchParams.get("id_token_hint")?.split(".")).toHaveLength(3);
    expect(logout.headers.getSetCookie().some((line) => /^gatehouse_session=;/.test(line))).toBe(true);
    expect((await browser.request(`${gateway.url}/api/auth/me`)).status).toBe(401);

    // The provider asks to confirm, then sends the browser back to the sign-in page.
    const confirm = await browser.follow(endSession.href);
    expect(confirm.status).toBe(200);
    const form = /<form[^>]*action="([^"]+)"[\s\S]*?<\/form>/.exec(confirm.text)!;
    const fields = Object.fromEntries(
      [...form[0].matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const back = await browser.follow(
      new URL(form[1]!, confirm.url).href,
      { form: { ...fields, logout: "yes" } },
      (url) => url.href.startsWith(`${gateway.url}/login`),
    );
    expect(back.location).toBe(`${gateway.url}/login`);

    // The provider's session is over: signing in again shows its sign-in page.
    const again = await walkSsoSignIn(browser, gateway.url, null);
    expect(again.callback).toBeNull();
    expect(again.answer.text).toContain('name="login"');
  });

  it("a password session signs out as before (204)", async () => {
    const viewer = await gateway.signIn("viewer");
    expect((await viewer.request("/api/auth/logout", { method: "POST" })).status).toBe(204);
  });
});

describe("secrets", () => {
  it("no client secret, code or token the provider handed out is in a log line or, in clear, in the store", () => {
    const secrets = idp.secrets();
    expect(secrets.length).toBeGreaterThan(20);
    const output = gateway.output().join("\n");
    const store = ["", "-wal"].map((suffix) => {
      try {
        return readFileSync(`${gateway.databaseUrl}${suffix}`).toString("latin1");
      } catch {
        return "";
      }
    });
    for (const secret of secrets) {
      expect(output.includes(secret), `a secret in the log: ${secret.slice(0, 12)}…`).toBe(false);
      for (const file of store)
        expect(file.includes(secret), `a secret in the store: ${secret.slice(0, 12)}…`).toBe(false);
    }
    expect(() => gateway.assertNoKeyLeaked()).not.toThrow();
  });
});
