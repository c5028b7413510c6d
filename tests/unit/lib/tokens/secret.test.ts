// A token's secret: its shape (gth_, random, checksum), the checksum that tells a real one from a typo, its hash.
import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import { generateTokenSecret, hashTokenSecret, isWellFormedToken, TOKEN_LENGTH } from "@/lib/tokens/secret";

describe("token secrets", () => {
  it("start with gth_ and have a fixed length of base62 characters", () => {
    const secret = generateTokenSecret();
    expect(secret).toMatch(/^gth_[0-9A-Za-z]{38}$/);
    expect(secret).toHaveLength(TOKEN_LENGTH);
  });

  it("differ every time", () => {
    const secrets = new Set(Array.from({ length: 200 }, generateTokenSecret));
    expect(secrets.size).toBe(200);
  });

  it("carry a checksum: a changed character or another prefix is not well formed", () => {
    const secret = generateTokenSecret();
    expect(isWellFormedToken(secret)).toBe(true);
    const last = secret.at(-1)!;
    expect(isWellFormedToken(secret.slice(0, -1) + (last === "a" ? "b" : "a"))).toBe(false);
    const fifth = secret[5]!;
    expect(isWellFormedToken(secret.slice(0, 5) + (fifth === "a" ? "b" : "a") + secret.slice(6))).toBe(false);
    expect(isWellFormedToken(`ghp_${secret.slice(4)}`)).toBe(false);
    expect(isWellFormedToken(`${secret} `)).toBe(false);
    expect(isWellFormedToken("gth_")).toBe(false);
  });

  it("are stored as their SHA-256, never as themselves", () => {
    const secret = generateTokenSecret();
    const hash = hashTokenSecret(secret);
    expect(hash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(hash).not.toContain(secret.slice(4));
  });
});
