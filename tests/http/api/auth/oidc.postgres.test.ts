// Single sign-on on the production build with PostgreSQL as the store (the other SSO tests use SQLite): users made
// at the first sign-in (two at once make one), matched by the provider's sub, an email another account holds
// refused, roles from the groups, and the re-check's one-at-a-time lease — each on PostgreSQL's own answers
// (unique violations, row counts).
import { describe, expect, it } from "vitest";

import {
  ADMIN_GROUP,
  SignInBrowser,
  UNMAPPED_GROUP,
  walkSsoSignIn,
  type TestIdpUser,
} from "@/tests/support/oidc-provider";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const {
  idp,
  gateway,
  client: admin,
} = setUpGateway({
  sso: true,
  store: "postgres",
  env: { OIDC_RECHECK_MINUTES: "0.02" },
  signIn: "admin",
  startTimeoutMs: 90_000,
});

let people = 0;
function person(groups: string[], over: Partial<TestIdpUser> = {}): TestIdpUser {
  people += 1;
  const user = {
    sub: `pg-sub-${people}`,
    login: `pg${people}`,
    password: `password of pg person ${people}`,
    email: `pg${people}@corp.test`,
    name: `Pg Person ${people}`,
    groups,
    ...over,
  };
  idp.addUser(user);
  return user;
}

async function users(): Promise<Array<Record<string, unknown>>> {
  return (await admin.request("/api/admin/users")).json.data;
}

describe("single sign-on on PostgreSQL", () => {
  it("two first sign-ins of one person at once make one user", async () => {
    const who = person(["portal-editors"]);
    const walks = await Promise.all([0, 1].map(() => walkSsoSignIn(new SignInBrowser(), gateway.url, who)));
    expect(walks.map((walk) => walk.answer.location)).toEqual([`${gateway.url}/`, `${gateway.url}/`]);
    const mine = (await users()).filter((user) => user.email === who.email);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ role: "editor", identity: { issuer: idp.issuer, subject: who.sub } });
  });

  it("refuses an email another account holds, and takes the role from the groups at the next sign-in", async () => {
    const holder = person([ADMIN_GROUP]);
    await walkSsoSignIn(new SignInBrowser(), gateway.url, holder);
    const twin = person([ADMIN_GROUP], { email: holder.email });
    expect((await walkSsoSignIn(new SignInBrowser(), gateway.url, twin)).answer.location).toBe(
      `${gateway.url}/login?error=sso_email_taken`,
    );

    idp.setGroups(holder.login, ["portal-editors"]);
    const browser = new SignInBrowser();
    await walkSsoSignIn(browser, gateway.url, holder);
    expect(JSON.parse((await browser.request(`${gateway.url}/api/auth/me`)).text).data.user).toMatchObject({
      email: holder.email,
      role: "editor",
    });
  });

  it("re-checks with the refresh token, one request at a time, and ends access when the group goes", async () => {
    const who = person([ADMIN_GROUP]);
    const browser = new SignInBrowser();
    await walkSsoSignIn(browser, gateway.url, who);
    idp.setGroups(who.login, [UNMAPPED_GROUP]);
    const deadline = Date.now() + 20_000;
    let statuses: number[] = [];
    // Requests sent together when the check is due: one refreshes, the others go on meanwhile.
    while (Date.now() < deadline) {
      statuses = await Promise.all(
        [0, 1, 2].map(async () => (await browser.request(`${gateway.url}/api/auth/me`)).status),
      );
      if (statuses.every((status) => status === 401)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses).toEqual([401, 401, 401]);
    // The provider saw no refresh token twice (it would have revoked the grant, and said so in an error).
    expect(gateway.logLines().filter((line) => line.msg === "sso_recheck_failed")).toEqual([]);
  });
});
