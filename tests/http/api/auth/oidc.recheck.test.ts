// The re-check of single sign-on sessions over real HTTP, with OIDC_RECHECK_MINUTES at 0.02 (1.2 s) so that a
// test waits for the change it makes, never for an hour: with a refresh token, someone removed from the groups or
// disabled at the provider loses access at the next check (API 401 with a sentence; a page goes through the
// provider, which says why); without one, a page load goes through a silent sign-in (prompt=none). The clock-exact
// rules (grace, back-off, a provider that does not answer): tests/unit/lib/auth/oidc/recheck.test.ts.
import { describe, expect, it } from "vitest";

import {
  ADMIN_GROUP,
  SignInBrowser,
  UNMAPPED_GROUP,
  walkSsoSignIn,
  type TestIdpUser,
  type TestProvider,
} from "@/tests/support/oidc-provider";
import { setUpGateway, type GatewayHarness } from "@/tests/support/set-up-gateway";

type Pair = Pick<GatewayHarness, "idp" | "gateway">;

/** A portal re-checking every 1.2 s, and its provider. */
const startPair = (refreshTokens: boolean, claimsInIdToken = true): Pair =>
  setUpGateway({ sso: { refreshTokens, claimsInIdToken }, env: { OIDC_RECHECK_MINUTES: "0.02" } });

let people = 0;
function person(idp: TestProvider, groups: string[]): TestIdpUser {
  people += 1;
  const user = {
    sub: `recheck-http-${people}`,
    login: `recheck${people}`,
    password: `password of recheck person ${people}`,
    email: `recheck${people}@corp.test`,
    name: `Recheck Person ${people}`,
    groups,
  };
  idp.addUser(user);
  return user;
}

/** Asks `probe` until `done` holds for its answer (at most 20 s), and returns that answer. */
async function until<T>(probe: () => Promise<T>, done: (answer: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await probe();
    if (done(answer)) return answer;
    if (Date.now() > deadline) throw new Error(`still not ${what} after 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function signedIn({ idp, gateway }: Pair, groups = [ADMIN_GROUP]) {
  const who = person(idp, groups);
  const browser = new SignInBrowser();
  const { answer } = await walkSsoSignIn(browser, gateway.url, who);
  expect(answer.location).toBe(`${gateway.url}/`);
  return { who, browser };
}

describe("with a refresh token", () => {
  const withRefresh = startPair(true);

  it("a user still in the groups is re-checked quietly: his session goes on", async () => {
    const { idp, gateway } = withRefresh;
    const { browser } = await signedIn(withRefresh);
    const before = idp.refreshGrants();
    const me = await until(
      () => browser.request(`${gateway.url}/api/auth/me`),
      (answer) => answer.status !== 200 || idp.refreshGrants() > before,
      "re-checked",
    );
    expect(me.status).toBe(200);
    expect((await browser.request(`${gateway.url}/api/auth/me`)).status).toBe(200);
  });

  it("removed from the groups: the next check ends his access, API calls answer 401 with a sentence", async () => {
    const { idp, gateway } = withRefresh;
    const { who, browser } = await signedIn(withRefresh);
    idp.setGroups(who.login, [UNMAPPED_GROUP]);
    const refused = await until(
      () => browser.request(`${gateway.url}/api/auth/me`),
      (answer) => answer.status !== 200,
      "refused",
    );
    expect(refused.status).toBe(401);
    const why = `Your access was re-checked with Test IdP: your groups there (${UNMAPPED_GROUP}) no longer give a role in Gatehouse, so your session has ended. Ask an administrator which group you need.`;
    expect(JSON.parse(refused.text).error).toMatchObject({ code: "unauthenticated", message: why });
    // The cookie stays, and opens nothing any more: the next page goes through the provider, which says why.
    expect(refused.headers.getSetCookie().some((line) => line.startsWith("gatehouse_session="))).toBe(false);
    // Every later call says the same, naming his groups, not that his account "may be disabled".
    const again = await browser.request(`${gateway.url}/api/auth/me`);
    expect(again.status).toBe(401);
    expect(JSON.parse(again.text).error.message).toBe(why);
    const page = await browser.request(`${gateway.url}/reports`);
    expect(page.location).toBe(`${gateway.url}/api/auth/oidc/start?next=%2Freports`);
    expect((await browser.follow(page.location!)).url).toBe(`${gateway.url}/login?error=sso_no_role&next=%2Freports`);
  });

  it("removed from the groups, found by an API call first: the sign-in page the portal then opens goes through the provider, which says why", async () => {
    const { idp, gateway } = withRefresh;
    const { who, browser } = await signedIn(withRefresh);
    idp.setGroups(who.login, [UNMAPPED_GROUP]);
    // A page's background call (the alert bell's count) finds it first; the portal answers a 401 by opening the
    // sign-in page for the page he is on (lib/portal/api-client.ts loginUrlForCurrentPage).
    const refused = await until(
      () => browser.request(`${gateway.url}/api/alerts/count`),
      (answer) => answer.status !== 200,
      "refused",
    );
    expect(refused.status).toBe(401);
    const login = await browser.request(`${gateway.url}/login?next=%2Freports`);
    expect(login.status).toBe(307);
    expect(login.location).toBe(`${gateway.url}/api/auth/oidc/start?next=%2Freports`);
    const back = await browser.follow(login.location!);
    expect(back.url).toBe(`${gateway.url}/login?error=sso_no_role&next=%2Freports`);
    expect(back.status).toBe(200);
    expect(back.text).toContain("No access to Gatehouse");
    // His session is over: the page with the reason stays (no loop), and so does any other page's answer.
    const again = await browser.request(`${gateway.url}/login?error=sso_no_role&next=%2Freports`);
    expect(again.status).toBe(200);
    expect((await browser.request(`${gateway.url}/api/auth/me`)).status).toBe(401);
    // The break-glass admin's password form is not sent through the provider.
    expect((await browser.request(`${gateway.url}/login?password=1`)).status).toBe(200);
  });

  it("disabled at the provider: the next check ends his access", async () => {
    const { idp, gateway } = withRefresh;
    const { who, browser } = await signedIn(withRefresh);
    idp.setDisabled(who.login, true);
    const refused = await until(
      () => browser.request(`${gateway.url}/api/auth/me`),
      (answer) => answer.status !== 200,
      "refused",
    );
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text).error.message).toBe(
      "Test IdP no longer confirms your sign-in (your account there may be disabled or signed out), so your Gatehouse session has ended. Sign in again.",
    );
  });

  it("a page whose check ended goes through the provider, which sends him to the page saying why", async () => {
    const { idp, gateway } = withRefresh;
    const { who, browser } = await signedIn(withRefresh);
    idp.setGroups(who.login, [UNMAPPED_GROUP]);
    const page = await until(
      () => browser.request(`${gateway.url}/reports`),
      (answer) => answer.status !== 200,
      "sent away",
    );
    expect(page.status).toBe(307);
    expect(page.location).toBe(`${gateway.url}/api/auth/oidc/start?next=%2Freports`);
    // The provider still knows him (no page of its own), and the callback refuses him with the reason.
    const back = await browser.follow(page.location!);
    expect(back.url).toBe(`${gateway.url}/login?error=sso_no_role&next=%2Freports`);
    expect(back.text).toContain("No access to Gatehouse");
  });

  it("signing out works while the provider does not answer a due re-check", async () => {
    const { idp, gateway } = withRefresh;
    const { browser } = await signedIn(withRefresh);
    await idp.stop();
    try {
      // The check comes due and fails; the session goes on within its grace.
      await until(
        () => browser.request(`${gateway.url}/api/auth/me`),
        () =>
          gateway.logLines().some((line) => line.msg === "sso_recheck_failed" && line.failure === "sso_unavailable"),
        "re-checked",
      );
      const logout = await browser.request(`${gateway.url}/api/auth/logout`, {
        method: "POST",
        headers: { "X-CSRF": "1" },
      });
      expect(logout.status).toBe(200);
      expect(logout.headers.getSetCookie().some((line) => /^gatehouse_session=;/.test(line))).toBe(true);
    } finally {
      await idp.start();
    }
    expect((await browser.request(`${gateway.url}/api/auth/me`)).status).toBe(401);
  });
});

describe("without a refresh token", () => {
  const withoutRefresh = startPair(false);

  it("a page load past the interval goes through the provider silently and comes back with a new session", async () => {
    const { gateway } = withoutRefresh;
    const { browser } = await signedIn(withoutRefresh);
    const first = browser.cookie(gateway.url, "gatehouse_session");
    const page = await until(
      () => browser.request(`${gateway.url}/reports`),
      (answer) => answer.status !== 200,
      "sent through the provider",
    );
    expect(page.status).toBe(307);
    expect(page.location).toBe(`${gateway.url}/api/auth/oidc/start?next=%2Freports&prompt=none`);
    const start = await browser.request(page.location!);
    expect(new URL(start.location!).searchParams.get("prompt")).toBe("none");
    const back = await browser.follow(start.location!);
    expect(back.url).toBe(`${gateway.url}/reports`);
    expect(back.status).toBe(200);
    expect(browser.cookie(gateway.url, "gatehouse_session")).not.toBe(first);
    expect(
      gateway
        .logLines()
        .some((line) => line.msg === "request" && line.operation === "ssoCallback" && line.status === 303),
    ).toBe(true);
  });

  it("API calls go on for one more interval, then ask for a reload (the cookie stays for it)", async () => {
    const { gateway } = withoutRefresh;
    const { browser } = await signedIn(withoutRefresh);
    const refused = await until(
      () => browser.request(`${gateway.url}/api/auth/me`),
      (answer) => answer.status !== 200,
      "refused",
    );
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text).error.message).toBe(
      "Your sign-in must be confirmed again with Test IdP: reload the page to continue.",
    );
    expect(refused.headers.getSetCookie().some((line) => line.startsWith("gatehouse_session="))).toBe(false);
  });

  it("removed from the groups, the silent check refuses him with the reason", async () => {
    const { idp, gateway } = withoutRefresh;
    const { who, browser } = await signedIn(withoutRefresh);
    idp.setGroups(who.login, [UNMAPPED_GROUP]);
    const page = await until(
      () => browser.request(`${gateway.url}/items`),
      (answer) => answer.status !== 200,
      "sent through the provider",
    );
    const back = await browser.follow(page.location!);
    expect(back.url).toBe(`${gateway.url}/login?error=sso_no_role&next=%2Fitems`);
  });

  it("when the provider's own session is over, the silent check leads to its sign-in page", async () => {
    const { idp, gateway } = withoutRefresh;
    const { browser } = await signedIn(withoutRefresh);
    browser.forget(idp.issuer);
    const page = await until(
      () => browser.request(`${gateway.url}/reports`),
      (answer) => answer.status !== 200,
      "sent through the provider",
    );
    const landed = await browser.follow(page.location!);
    expect(new URL(landed.url).origin).toBe(idp.issuer);
    expect(landed.text).toContain('name="login"');
    expect(browser.visited.some((url) => url.includes("/api/auth/oidc/callback?error=login_required"))).toBe(true);
  });
});

describe("with a refresh token, groups only at the userinfo endpoint", () => {
  /** Groups at the userinfo endpoint only (never in an ID token, refreshed ones included), with refresh tokens. */
  const groupsFromUserinfo = startPair(true, false);

  it("the re-check reads the groups where the sign-in did: the session goes on, and a promotion is applied", async () => {
    const { idp, gateway } = groupsFromUserinfo;
    const { who, browser } = await signedIn(groupsFromUserinfo, ["portal-editors"]);
    expect(JSON.parse((await browser.request(`${gateway.url}/api/auth/me`)).text).data.user.role).toBe("editor");
    idp.setGroups(who.login, [ADMIN_GROUP]);
    const promoted = await until(
      () => browser.request(`${gateway.url}/api/auth/me`),
      (answer) => answer.status !== 200 || JSON.parse(answer.text).data.user.role !== "editor",
      "re-checked",
    );
    expect(promoted.status).toBe(200);
    expect(JSON.parse(promoted.text).data.user.role).toBe("admin");
    expect(gateway.logLines().some((line) => line.msg === "sso_recheck_failed")).toBe(false);
  });

  it("removed from the groups: the next check still ends his access, naming his groups", async () => {
    const { idp, gateway } = groupsFromUserinfo;
    const { who, browser } = await signedIn(groupsFromUserinfo);
    idp.setGroups(who.login, [UNMAPPED_GROUP]);
    const refused = await until(
      () => browser.request(`${gateway.url}/api/auth/me`),
      (answer) => answer.status !== 200,
      "refused",
    );
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text).error.message).toContain(
      `your groups there (${UNMAPPED_GROUP}) no longer give a role in Gatehouse`,
    );
  });
});
