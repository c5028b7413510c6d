// Making an API token after single sign-on, over real HTTP (next start ↔ the test OpenID provider): a session whose
// last proof is more than STEP_UP_MINUTES old is told to sign in again (there is no password to give, and this
// person has no passkey or authenticator app), a password step-up is refused, and a fresh sign-in with the provider
// starts the clock again.
import { expect, it } from "vitest";

import { sealSession, SESSION_COOKIE_NAME, unsealSession } from "@/lib/auth/session";
import { STEP_UP_MINUTES } from "@/lib/contract/values";

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

  // The same session, as the gateway would have sealed it had it begun STEP_UP_MINUTES + 1 minutes ago.
  const settings = {
    secrets: [gateway.env.SESSION_SECRET!],
    absoluteMs: 86_400_000,
    idleMs: 86_400_000,
    secure: false,
  };
  const session = await unsealSession(browser.cookie(gateway.url, SESSION_COOKIE_NAME), settings);
  expect(session?.ssoSessionId).toBeTruthy();
  const longAgo = Date.now() - (STEP_UP_MINUTES + 1) * 60_000;
  const aged = await sealSession({ ...session!, issuedAt: longAgo, verifiedAt: longAgo }, settings);

  const refused = await makeToken(aged);
  expect([refused.status, refused.json.error.code], refused.text).toEqual([403, "step_up_required"]);
  expect(refused.json.error.message).toContain("sign in again with single sign-on");
  // He has no password here: the step-up does not take one (and does not count it against the throttle).
  const withPassword = await gateway.request("/api/auth/step-up", {
    method: "POST",
    headers: { Cookie: `${SESSION_COOKIE_NAME}=${aged}`, "X-CSRF": "1", "Content-Type": "application/json" },
    body: JSON.stringify({ method: "password", password: who.password }),
  });
  expect([withPassword.status, withPassword.json.error.code], withPassword.text).toEqual([400, "invalid_input"]);
  expect(withPassword.json.error.fields.password).toContain("single sign-on");
  expect((await makeToken(aged)).status).toBe(403);

  expect((await walkSsoSignIn(browser, gateway.url, who)).answer.location).toBe(`${gateway.url}/`);
  const made = await makeToken(browser.cookie(gateway.url, SESSION_COOKIE_NAME)!);
  expect(made.status, made.text).toBe(201);
});
