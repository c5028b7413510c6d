// Single sign-on as the operator sets it up, over real HTTP with a real provider: a provider that is down when the
// portal starts (the portal runs; the button says so; it works once the provider is back), a wrong client secret,
// a public client with the claims only at the userinfo endpoint, password sign-in off with one break-glass admin,
// and settings that stop the start, one line each.
import { beforeAll, describe, expect, it } from "vitest";

import { CANARY } from "@/tests/support/canary";
import { startGatewayExpectingFailure, TEST_ADMIN } from "@/tests/support/gateway";
import { IDP_USERS, SignInBrowser, walkSsoSignIn } from "@/tests/support/oidc-provider";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const AREA = { REPORTS_API_BASE_URL: "http://127.0.0.1:9/seo", REPORTS_API_KEY: CANARY.reports };
const WRONG_SECRET = "not-the-client-secret-4f9a1c77e2";

const pageText = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

describe("a provider that is down when the portal starts", () => {
  const { idp: confidential, gateway } = setUpGateway({ sso: { listen: false } });
  beforeAll(async () => {
    // Its start asks the provider in the background: wait until it has said it could not, then bring the provider up.
    const deadline = Date.now() + 20_000;
    while (
      !gateway
        .logLines()
        .some((line) => line.level === "warn" && String(line.msg).startsWith("Single sign-on: Test IdP"))
    ) {
      if (Date.now() > deadline) throw new Error("the portal never said the provider could not be reached");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await confidential.start();
  });

  it("does not stop the portal: the start says it, the button says so in one sentence, and works once it is back", async () => {
    expect((await gateway.request("/api/health")).status).toBe(200);
    expect(
      gateway
        .logLines()
        .find((line) => line.level === "warn" && String(line.msg).startsWith("Single sign-on: Test IdP"))?.msg,
    ).toBe(
      `Single sign-on: Test IdP (${confidential.issuer}) cannot be reached now; the portal runs, and the next sign-in with it tries again.`,
    );

    await confidential.stop();
    const refused = await gateway.request("/api/auth/oidc/start?next=%2Fitems");
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe("/login?error=sso_unavailable&next=%2Fitems");
    const page = await gateway.request("/login?error=sso_unavailable&next=%2Fitems");
    expect(pageText(page.text)).toContain(
      "Test IdP is not answering, so you cannot sign in with it right now. Try again in a few minutes; if it lasts, tell an administrator.",
    );
    expect(gateway.logLines().find((line) => line.msg === "sso_sign_in_failed")).toMatchObject({
      level: "warn",
      failure: "sso_unavailable",
      detail: { phase: "discovery" },
    });

    // A start remembers the provider's failure START_CHECK_MS (5 s) before asking it again: once it is back, the
    // button reaches it within that time.
    await confidential.start();
    const deadline = Date.now() + 20_000;
    for (;;) {
      const start = await gateway.request("/api/auth/oidc/start?next=%2Fitems");
      if (start.status === 302 && new URL(start.headers.get("location")!).origin === confidential.issuer) break;
      expect(start.headers.get("location")).toBe("/login?error=sso_unavailable&next=%2Fitems");
      if (Date.now() > deadline)
        throw new Error("the start still says sso_unavailable 20 s after the provider came back");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { answer } = await walkSsoSignIn(new SignInBrowser(), gateway.url, IDP_USERS.admin, { next: "/items" });
    expect(answer.location).toBe(`${gateway.url}/items`);
  });
});

describe("a wrong client secret", () => {
  // Password sign-in off, with a break-glass admin the store does not hold: the start warns.
  const { gateway } = setUpGateway({
    sso: true,
    env: { OIDC_CLIENT_SECRET: WRONG_SECRET, PASSWORD_LOGIN: "off", BREAK_GLASS_EMAIL: "nobody@gatehouse.test" },
  });

  it("is one sentence for people, and the provider's answer (never a secret) for the operator", async () => {
    const { answer } = await walkSsoSignIn(new SignInBrowser(), gateway.url, IDP_USERS.admin);
    expect(answer.location).toBe(`${gateway.url}/login?error=sso_client_rejected`);
    const page = await gateway.request("/login?error=sso_client_rejected");
    expect(pageText(page.text)).toContain(
      "Test IdP refused Gatehouse's own credentials (its client id or secret), so nobody can sign in with it right now. Tell an administrator.",
    );
    expect(gateway.logLines().find((line) => line.msg === "sso_sign_in_failed")).toMatchObject({
      level: "error",
      failure: "sso_client_rejected",
      detail: { phase: "token", oauth_error: "invalid_client", http_status: 401 },
    });
    expect(gateway.output().join("\n")).not.toContain(WRONG_SECRET);
  });

  it("(with password sign-in off) the start warns about a break-glass admin the store does not hold", () => {
    expect(gateway.logLines().find((line) => String(line.msg).startsWith("The break-glass admin"))).toMatchObject({
      level: "warn",
      msg: 'The break-glass admin nobody@gatehouse.test is not a user of this store; create it: npm run users -- create --email nobody@gatehouse.test --name "Break-glass admin" --role admin. Until then nobody can sign in if Test IdP is down.',
    });
  });
});

describe("a public client (no secret) whose provider keeps the claims at the userinfo endpoint", () => {
  const { gateway } = setUpGateway({ sso: { publicClient: true, claimsInIdToken: false } });

  it("signs in with PKCE alone, the groups read from userinfo", async () => {
    const browser = new SignInBrowser();
    const { callback, answer } = await walkSsoSignIn(browser, gateway.url, IDP_USERS.admin);
    expect(callback).toBeTruthy();
    expect(answer.location).toBe(`${gateway.url}/`);
    const me = JSON.parse((await browser.request(`${gateway.url}/api/auth/me`)).text);
    expect(me.data.user).toMatchObject({ email: "ada@corp.test", name: "Ada Lovelace", role: "admin" });
    expect(gateway.logLines().find((line) => String(line.msg).startsWith("Single sign-on with"))?.msg).toContain(
      "client gatehouse (public, PKCE only)",
    );
  });
});

describe("PASSWORD_LOGIN=off", () => {
  // The break-glass admin is ADMIN_EMAIL, the first admin.
  const { gateway } = setUpGateway({ sso: true, env: { PASSWORD_LOGIN: "off" } });

  it("the sign-in page shows only the provider, and a break-glass link to the password form", async () => {
    const page = await gateway.request("/login?next=%2Fitems");
    expect(page.text).toContain('href="/api/auth/oidc/start?next=%2Fitems"');
    expect(page.text).not.toContain('name="password"');
    expect(pageText(page.text)).toContain("Break-glass administrator? Sign in with a password");
    const form = await gateway.request("/login?password=1&next=%2Fitems");
    expect(form.text).toContain('name="password"');
    expect(pageText(form.text)).toContain("Break-glass administrator: sign in with a password");
  });

  it("signs in the break-glass admin with his password, and says at start who he is", async () => {
    const admin = await gateway.signIn("admin");
    expect(admin.user).toMatchObject({ email: TEST_ADMIN.email, role: "admin" });
    expect(
      gateway
        .logLines()
        .some(
          (line) =>
            line.msg ===
            `Password sign-in is off (PASSWORD_LOGIN=off): only the break-glass admin ${TEST_ADMIN.email} may sign in with a password; everyone else signs in with Test IdP.`,
        ),
    ).toBe(true);
  });

  it("refuses anyone else's right password with a sentence, and a wrong one as ever", async () => {
    const admin = await gateway.signIn("admin");
    const created = await admin.request("/api/admin/users", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email: "local@gatehouse.test",
        name: "Local",
        role: "editor",
        password: "the local password of somebody",
      }),
    });
    expect(created.status).toBe(201);
    const json = (password: string) =>
      gateway.request("/api/auth/login", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF": "1" },
        body: JSON.stringify({ email: "local@gatehouse.test", password }),
      });
    const right = await json("the local password of somebody");
    expect(right.status).toBe(403);
    expect(right.json.error).toMatchObject({
      code: "password_login_off",
      message: "Password sign-in is turned off on this portal: sign in with Test IdP.",
    });
    expect(right.headers.getSetCookie().some((line) => /^gatehouse_session=[^;]/.test(line))).toBe(false);
    expect((await json("not the password at all, no")).json.error.code).toBe("invalid_credentials");

    // The same without JavaScript: back to the page, which says it.
    const form = await gateway.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: gateway.url },
      body: new URLSearchParams({
        email: "local@gatehouse.test",
        password: "the local password of somebody",
        next: "/items",
      }).toString(),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/login?error=password_login_off&next=%2Fitems");
    expect(pageText((await gateway.request("/login?error=password_login_off&next=%2Fitems")).text)).toContain(
      "Password sign-in is turned off on this portal: sign in with Test IdP instead.",
    );
    // Both refusals (JSON and form) on one row: a repeated denial is counted.
    const refusals = (await admin.request("/api/admin/audit?action=auth.login_failed")).json.data as Array<{
      detail: { reason?: string };
    }>;
    expect(refusals.find((row) => row.detail.reason === "password_login_off")).toMatchObject({
      user_email: "local@gatehouse.test",
      outcome: "denied",
      count: 2,
      summary: "Refused: password sign-in is off, and this is not the break-glass admin.",
    });
  });

  it("single sign-on still signs people in", async () => {
    const { answer } = await walkSsoSignIn(new SignInBrowser(), gateway.url, IDP_USERS.admin);
    expect(answer.location).toBe(`${gateway.url}/`);
  });
});

describe("settings that do not fit", () => {
  it("stop the start, one line each, never the client secret", async () => {
    const { code, output } = await startGatewayExpectingFailure({
      ...AREA,
      OIDC_ISSUER: "http://login.example.com/realms/staff",
      OIDC_CLIENT_ID: "gatehouse",
      OIDC_CLIENT_SECRET: "super secret value 1",
      OIDC_ROLE_MAP: "portal-admins=owner",
      PASSWORD_LOGIN: "off",
      BREAK_GLASS_EMAIL: "not an email",
    });
    expect(code).toBe(1);
    expect(output).toEqual(
      expect.arrayContaining([
        "Gatehouse cannot start: 4 settings need fixing (in the environment or .env.local):",
        'OIDC_ISSUER: "http://login.example.com/realms/staff" must be https:// (plain http is accepted only on a loopback address such as http://127.0.0.1:8080, for tests and local trials)',
        "OIDC_CLIENT_SECRET: must be printable ASCII without spaces (check for a pasted newline or quotes)",
        'OIDC_ROLE_MAP: entry "portal-admins=owner" names the role "owner"; roles are admin, editor, viewer, support',
        'BREAK_GLASS_EMAIL: "not an email" must be an address such as name@example.com',
      ]),
    );
    expect(output.join("\n")).not.toContain("super secret value");
    expect(output.join("\n")).not.toMatch(/\bat \S+\.js:\d+/);
  });
});
