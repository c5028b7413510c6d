// Making an API token after single sign-on, over real HTTP (next start ↔ the test OpenID provider): a session that
// began more than RECENT_SIGN_IN_MINUTES ago is told to sign in again (there is no password to give), and a fresh
// sign-in with the provider starts the clock again.
import { expect, it } from "vitest";

import { sealSession, SESSION_COOKIE_NAME, unsealSession } from "@/lib/auth/session";
import { RECENT_SIGN_IN_MINUTES } from "@/lib/contract/values";

import { ADMIN_GROUP, SignInBrowser, walkSsoSignIn } from "@/tests/support/oidc-provider";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const { idp, gateway } = setUpGateway({ sso: { refreshTokens: true } });

const makeToken = (sessionCookie: string, extra: Record<string, unknown> = {}) =>
  gateway.request("/api/tokens", {
    method: "POST",
    headers: { Cookie: `${SESSION_COOKIE_NAME}=${sessionCookie}`, "X-CSRF": "1", "Content-Type": "application/json" },
    body: JSON.stringify({ name: "after sso", scopes: ["reports:read"], expires_in_days: 7, ...extra }),
  });

it("tells someone whose single sign-on session began long ago to sign in again; a fresh sign-in makes the token", async () => {
  const who = {
    sub: "tokens-sso-1",
    login: "tokens1",
    password: "password of tokens person 1",
    email: "tokens1@corp.test",
    name: "Tokens Person",
    groups: [ADMIN_GROUP],
  };
  idp.addUser(who);
  const browser = new SignInBrowser();
  expect((await walkSsoSignIn(browser, gateway.url, who)).answer.location).toBe(`${gateway.url}/`);

  // The same session, as the gateway would have sealed it had it begun RECENT_SIGN_IN_MINUTES + 1 minutes ago.
  const settings = {
    secrets: [gateway.env.SESSION_SECRET!],
    absoluteMs: 86_400_000,
    idleMs: 86_400_000,
    secure: false,
  };
  const session = await unsealSession(browser.cookie(gateway.url, SESSION_COOKIE_NAME), settings);
  expect(session?.ssoSessionId).toBeTruthy();
  const aged = await sealSession(
    { ...session!, issuedAt: Date.now() - (RECENT_SIGN_IN_MINUTES + 1) * 60_000 },
    settings,
  );

  for (const extra of [{}, { password: who.password }]) {
    const refused = await makeToken(aged, extra);
    expect([refused.status, refused.json.error.code], refused.text).toEqual([403, "reauthentication_required"]);
    expect(refused.json.error.message).toContain("sign in again with single sign-on");
  }

  expect((await walkSsoSignIn(browser, gateway.url, who)).answer.location).toBe(`${gateway.url}/`);
  const made = await makeToken(browser.cookie(gateway.url, SESSION_COOKIE_NAME)!);
  expect(made.status, made.text).toBe(201);
});
