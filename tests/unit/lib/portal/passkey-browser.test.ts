// The browser's passkey assertion (lib/portal/passkey-browser.ts): options asked of the gateway for the purpose, with
// X-CSRF, handed to the browser's WebAuthn (@simplewebauthn/browser, replaced here: Node has no authenticator), and
// the gateway's refusal passed on as it is. With a real authenticator: the passkeys' browser tests.
import { afterEach, describe, expect, it, vi } from "vitest";

const startAuthentication = vi.hoisted(() => vi.fn());
vi.mock("@simplewebauthn/browser", () => ({
  startAuthentication,
  startRegistration: vi.fn(),
  browserSupportsWebAuthn: () => true,
}));

import { ApiRequestError } from "@/lib/portal/api-client";
import { assertWithPasskey } from "@/lib/portal/passkey-browser";

afterEach(() => {
  vi.unstubAllGlobals();
  startAuthentication.mockReset();
});

describe("assertWithPasskey", () => {
  it("asks for options for its purpose and answers the authenticator's response", async () => {
    const options = { challenge: "abc", rpId: "portal.test", allowCredentials: [] };
    const fetch = vi.fn(async () => Response.json({ data: options }));
    vi.stubGlobal("fetch", fetch);
    startAuthentication.mockResolvedValue({ id: "cred", type: "public-key" });

    expect(await assertWithPasskey("step_up")).toEqual({ id: "cred", type: "public-key" });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe("/api/auth/passkey/options");
    expect(init).toMatchObject({ method: "POST", body: JSON.stringify({ purpose: "step_up" }) });
    expect((init.headers as Record<string, string>)["X-CSRF"]).toBe("1");
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: options });
  });

  it("passes the gateway's refusal on and never asks the authenticator", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json({ error: { code: "not_found", message: "No passkeys here." } }, { status: 404 }),
    );
    await expect(assertWithPasskey("step_up")).rejects.toBeInstanceOf(ApiRequestError);
    expect(startAuthentication).not.toHaveBeenCalled();
  });
});
