// An endpoint's secret at rest: sealed under a key of its own, opened only with the same root key.
import { describe, expect, it } from "vitest";

import { generateSigningSecret, signingSecretSealer } from "@/lib/webhooks/seal";

describe("webhook secrets", () => {
  it("are whsec_ and 32 random bytes", () => {
    expect(generateSigningSecret()).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateSigningSecret()).not.toBe(generateSigningSecret());
  });

  it("are sealed, not stored as they are, and open only with the same root key", () => {
    const secret = generateSigningSecret();
    const sealed = signingSecretSealer.seal(secret, "root key of at least thirty-two characters");
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(signingSecretSealer.open(sealed, "root key of at least thirty-two characters")).toBe(secret);
    expect(signingSecretSealer.open(sealed, "another root key of thirty-two characters")).toBeNull();
    expect(signingSecretSealer.open("garbage", "root key of at least thirty-two characters")).toBeNull();
  });
});
