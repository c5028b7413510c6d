// Password hashing: scrypt with its cost in the stored string, rehash when it changes, and a hash no password matches.
import { describe, expect, it } from "vitest";

import { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, unmatchableHash, verifyPassword } from "@/lib/auth/password";
import { FAST_HASH } from "@/tests/support/store-backends";

describe("password hashing", () => {
  it("hashes with the production cost by default and verifies", async () => {
    const stored = await hashPassword("correct horse battery");
    const { N, r, p } = DEFAULT_SCRYPT_PARAMS;
    expect(stored).toMatch(new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[\\w-]{22}\\$[\\w-]{86}$`));
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it("verifies with the cost stored in the hash, and flags other costs for rehashing", async () => {
    const stored = await hashPassword("correct horse battery", FAST_HASH);
    expect(stored.startsWith("scrypt$1024$8$1$")).toBe(true);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(needsRehash(stored)).toBe(true);
    expect(needsRehash(stored, FAST_HASH)).toBe(false);
  });

  it("treats the same text in another Unicode form as the same password", async () => {
    const composed = "café au lait!!".normalize("NFC");
    const decomposed = composed.normalize("NFD");
    expect(composed).not.toBe(decomposed);
    expect(await verifyPassword(decomposed, await hashPassword(composed, FAST_HASH))).toBe(true);
  });

  it("never matches a malformed or absurd stored hash, without throwing", async () => {
    const good = await hashPassword("correct horse battery", FAST_HASH);
    const [, , , , salt, hash] = good.split("$");
    for (const stored of [
      "",
      "plain text password",
      "bcrypt$10$abc",
      good.replace("scrypt$", "scrypt2$"),
      `scrypt$1000$8$1$${salt}$${hash}`, // N not a power of two
      `scrypt$${2 ** 30}$8$1$${salt}$${hash}`, // would ask for gigabytes
      `scrypt$1024$8$1$$${hash}`,
      `scrypt$1024$8$1$${salt}$`,
      `${good}$extra`,
    ]) {
      expect(await verifyPassword("correct horse battery", stored)).toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });

  it("refuses over-long candidates without hashing them", async () => {
    const stored = await hashPassword("x".repeat(256), FAST_HASH);
    expect(await verifyPassword("x".repeat(256), stored)).toBe(true);
    expect(await verifyPassword("x".repeat(257), stored)).toBe(false);
  });

  it("makes unmatchable hashes: well-formed, production cost, matching nothing", async () => {
    const dummy = unmatchableHash();
    expect(needsRehash(dummy)).toBe(false);
    expect(unmatchableHash()).not.toBe(dummy);
    for (const candidate of ["", "correct horse battery", "password1234"]) {
      expect(await verifyPassword(candidate, unmatchableHash(FAST_HASH))).toBe(false);
    }
  });
});
