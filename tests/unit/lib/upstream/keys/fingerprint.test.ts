// How a key is named where others see it: a fingerprint keyed with a secret of the server, and no last 4 for a
// short key, so that the name alone (in a webhook payload, a log line) does not let anyone try candidates offline.
import { createHash, randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { keyFingerprint, last4Of } from "@/lib/upstream/keys/fingerprint";

const SHORT_KEY = "k3Y9zQ2a"; // 8 characters: an unkeyed 32-bit hash plus its last 4 leaves 4 to guess

describe("keyFingerprint", () => {
  it("is keyed: the same key under another secret has another fingerprint, and no plain hash of the key gives it", () => {
    const secret = randomBytes(32).toString("hex");
    const other = randomBytes(32).toString("hex");
    const fingerprint = keyFingerprint(SHORT_KEY, secret);
    expect(fingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(keyFingerprint(SHORT_KEY, secret)).toBe(fingerprint);
    expect(keyFingerprint(SHORT_KEY, other)).not.toBe(fingerprint);
    expect(keyFingerprint("k3Y9zQ2b", secret)).not.toBe(fingerprint);
    // What an attacker without the secret can compute from a candidate does not match it.
    for (const algorithm of ["sha256", "sha1", "md5", "sha512"]) {
      expect(createHash(algorithm).update(SHORT_KEY).digest("hex")).not.toContain(fingerprint);
    }
  });
});

describe("last4Of", () => {
  it("shows no last 4 of a key under 16 characters, and the last 4 of a longer one", () => {
    expect(last4Of(SHORT_KEY)).toBeNull();
    expect(last4Of("fifteen-chars-x")).toBeNull();
    expect(last4Of("sixteen-chars-xy")).toBe("s-xy");
  });
});
