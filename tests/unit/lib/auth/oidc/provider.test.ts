// The provider's discovery (lib/auth/oidc/provider.ts) against a real OpenID provider in this process, counting the
// discovery documents it serves: asked once and shared, asked again when an hour old (the clock passed in), the old
// one kept while the provider does not answer, and not asked again when the provider rotates its signing key; for a
// sign-in start (`live`), asked again when the last answer is older than START_CHECK_MS, and a failure thrown and kept
// as long. Over HTTP (50 sign-in starts, at most one discovery per 5 s): tests/http/api/auth/oidc.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import {
  authorizationRequest,
  exchangeCode,
  forgetProviderConfig,
  isSsoError,
  providerConfig,
  START_CHECK_MS,
} from "@/lib/auth/oidc/provider";
import type { OidcSettings } from "@/lib/config/oidc";

import {
  ADMIN_GROUP,
  callbackUrlFor,
  IDP_USERS,
  startTestProvider,
  type TestProvider,
} from "@/tests/support/oidc-provider";

const REDIRECT = "http://127.0.0.1:9/api/auth/oidc/callback";
const HOUR = 60 * 60_000;

let idp: TestProvider;
let settings: OidcSettings;

beforeAll(async () => {
  idp = await startTestProvider({ redirectUris: [REDIRECT] });
  settings = {
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    scopes: null,
    roleClaim: "groups",
    roleMap: [{ group: ADMIN_GROUP, role: "admin" }],
    defaultRole: null,
    label: "Test IdP",
    recheckMs: HOUR,
  };
});
afterAll(async () => {
  forgetProviderConfig();
  await idp?.close();
});
beforeEach(async () => {
  forgetProviderConfig();
  await idp.start().catch(() => undefined); // a test may have left it down
});

/** A whole sign-in in this process: the authorization request, the provider's pages, the code exchange. */
async function signIn() {
  const config = await providerConfig(settings);
  const request = await authorizationRequest(settings, config, { redirectUri: REDIRECT });
  return exchangeCode(settings, config, await callbackUrlFor(request.url, IDP_USERS.admin, REDIRECT), request);
}

describe("the provider's discovery", () => {
  it("is asked once for many requests at the same time, and then kept", async () => {
    const before = idp.discoveryRequests();
    const configs = await Promise.all(Array.from({ length: 20 }, () => providerConfig(settings)));
    expect(new Set(configs).size).toBe(1);
    await providerConfig(settings);
    expect(idp.discoveryRequests()).toBe(before + 1);
  });

  it("is asked again when an hour old; when the provider does not answer then, the one it gave is kept", async () => {
    const now = Date.now();
    const first = await providerConfig(settings, { now });
    const before = idp.discoveryRequests();
    expect(await providerConfig(settings, { now: now + HOUR - 1 })).toBe(first);
    expect(idp.discoveryRequests()).toBe(before);
    const second = await providerConfig(settings, { now: now + HOUR });
    expect(second).not.toBe(first);
    expect(idp.discoveryRequests()).toBe(before + 1);
    await idp.stop();
    expect(await providerConfig(settings, { now: now + 2 * HOUR + 1 })).toBe(second);
  });

  it("for a sign-in start (live): not asked within START_CHECK_MS of its last answer, asked again after it", async () => {
    const now = Date.now();
    const first = await providerConfig(settings, { now });
    const before = idp.discoveryRequests();
    expect(await providerConfig(settings, { now: now + START_CHECK_MS - 1, live: true })).toBe(first);
    expect(idp.discoveryRequests()).toBe(before);
    const second = await providerConfig(settings, { now: now + START_CHECK_MS, live: true });
    expect(second).not.toBe(first);
    expect(idp.discoveryRequests()).toBe(before + 1);
    // The answer counts from when it came: the next live call within START_CHECK_MS of it asks nothing.
    expect(await providerConfig(settings, { now: now + 2 * START_CHECK_MS - 1, live: true })).toBe(second);
    expect(idp.discoveryRequests()).toBe(before + 1);
  });

  it("for a sign-in start (live) with the provider down: sso_unavailable, not the old one, kept START_CHECK_MS; other callers keep the old one", async () => {
    const now = Date.now();
    const old = await providerConfig(settings, { now });
    await idp.stop();
    const down = now + START_CHECK_MS;
    const refused = await providerConfig(settings, { now: down, live: true }).catch((error: unknown) => error);
    expect(isSsoError(refused) && refused.failure).toBe("sso_unavailable");
    // Back already, but the failure is remembered: a second start within START_CHECK_MS asks nothing, and says the same.
    await idp.start();
    const before = idp.discoveryRequests();
    const again = await providerConfig(settings, { now: down + START_CHECK_MS - 1, live: true }).catch(
      (error: unknown) => error,
    );
    expect(again).toBe(refused);
    expect(idp.discoveryRequests()).toBe(before);
    // A caller that is not a start (a callback, a re-check) still has the configuration the provider gave.
    expect(await providerConfig(settings, { now: down + 1 })).toBe(old);
    expect(idp.discoveryRequests()).toBe(before);
    // Once the failure is START_CHECK_MS old, a start asks again, and the provider answers.
    const back = await providerConfig(settings, { now: down + START_CHECK_MS, live: true });
    expect(back).not.toBe(old);
    expect(idp.discoveryRequests()).toBe(before + 1);
  });

  it("is not asked again when the provider rotates its signing key: the next sign-in succeeds at once", async () => {
    await signIn();
    idp.rotateSigningKey();
    const before = idp.discoveryRequests();
    // An ID token straight from the token endpoint (over TLS) is taken without a key-set lookup, so a new key id
    // misses nothing (openid-client keeps the key set itself where it checks a signature).
    const tokens = await signIn();
    expect(tokens.claims.sub).toBe(IDP_USERS.admin.sub);
    expect(idp.discoveryRequests()).toBe(before);
  });
});

describe("a refused ID token", () => {
  it("names the claim that did not match, with both values when they are public (the audience)", async () => {
    idp.tamperIdTokens((claims) => ({ ...claims, aud: "another-application" }));
    try {
      const refused = await signIn().catch((error: unknown) => error);
      expect(isSsoError(refused) && { failure: refused.failure, detail: refused.detail }).toMatchObject({
        failure: "sso_token_invalid",
        detail: {
          error_code: "OAUTH_JWT_CLAIM_COMPARISON_FAILED",
          claim: "aud",
          expected: idp.clientId,
          got: "another-application",
        },
      });
    } finally {
      idp.tamperIdTokens(null);
    }
  });

  it("names a nonce that did not match, without its values (they bind the token to one browser)", async () => {
    idp.tamperIdTokens((claims) => ({ ...claims, nonce: "someone-elses-nonce" }));
    try {
      const refused = await signIn().catch((error: unknown) => error);
      expect(isSsoError(refused) && refused.detail).toMatchObject({
        error_code: "OAUTH_JWT_CLAIM_COMPARISON_FAILED",
        claim: "nonce",
      });
      expect(JSON.stringify(isSsoError(refused) && refused.detail)).not.toContain("someone-elses-nonce");
      expect(isSsoError(refused) && refused.detail).not.toHaveProperty("expected");
    } finally {
      idp.tamperIdTokens(null);
    }
  });
});
