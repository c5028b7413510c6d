import { describe, expect, it } from "vitest";

import { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, unmatchableHash, verifyPassword } from "@/lib/auth/password";
import { passwordProblem, passwordSchema } from "@/lib/contract/password";

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

describe("password policy", () => {
  const problems = (value: unknown) => {
    const result = passwordSchema.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => i.message);
  };

  it("accepts 12 to 256 characters that are hard to guess, spaces and any script included", () => {
    expect(problems("admin password for tests")).toEqual([]);
    expect(problems("  spaced out words  ")).toEqual([]);
    expect(problems("Kq8#vZ2!r7Lm")).toEqual([]);
    expect(problems("грустный ёжик под дождём")).toEqual([]);
    expect(problems("a long random phrase Kq8#vZ2!".padEnd(256, "x"))).toEqual([]);
  });

  it("says which rule a password breaks", () => {
    expect(problems("a".repeat(11))).toEqual(["password must be at least 12 characters"]);
    expect(problems("a".repeat(257))).toEqual(["password must be at most 256 characters"]);
    expect(problems(" ".repeat(12))).toEqual(["password must not be only spaces or invisible characters"]);
    expect(problems("\u3000\u00a0 ".repeat(5))).toEqual(["password must not be only spaces or invisible characters"]);
  });

  it("refuses control characters, naming the first one and where it is", () => {
    expect(problems("\u0000".repeat(12))).toEqual(["password must not contain control characters (U+0000 at position 1)"]);
    expect(problems("good phrase\twith a tab")).toEqual(["password must not contain control characters (U+0009 at position 12)"]);
    expect(problems("line one\nline two words")).toEqual(["password must not contain control characters (U+000A at position 9)"]);
  });

  it("refuses invisible-only passwords, and does not count invisible characters towards the length", () => {
    expect(problems("\u200b".repeat(12))).toEqual(["password must not be only spaces or invisible characters"]);
    expect(problems("\u200d\u2060\ufeff\u180e".repeat(3))).toEqual(["password must not be only spaces or invisible characters"]);
    expect(problems(`Kq8#vZ2${"\u200b".repeat(6)}`)).toEqual([
      "password must be at least 12 characters, not counting invisible ones (such as zero-width spaces)",
    ]);
  });

  it("refuses common and easily guessed passwords, saying why", () => {
    for (const weak of ["aaaaaaaaaaaa", "password1234", "qwertyuiopas", "123456789012", "iloveyou2024!", "gatehouse-admin"]) {
      const [message, ...rest] = problems(weak);
      expect(rest).toEqual([]);
      expect(message).toMatch(/^password is too easy to guess: .+\. Use a longer phrase of unrelated words$/);
    }
    expect(problems("aaaaaaaaaaaa")[0]).toContain('Repeated characters like "aaa" are easy to guess');
  });

  it("refuses the account's own email, or a password built on it, when the account is known", () => {
    expect(passwordProblem("vera@example.com", { email: "Vera@Example.com" })).toBe("password must not contain the account's email");
    expect(passwordProblem("my vera@example.com!", { email: "vera@example.com" })).toBe("password must not contain the account's email");
    expect(passwordProblem("verahoffmann1", { email: "vera@example.com", name: "Vera Hoffmann" })).toMatch(/^password is too easy to guess/);
    expect(passwordProblem("admin password for tests", { email: "vera@example.com" })).toBeNull();
  });

  it("says what is missing or of the wrong type", () => {
    expect(problems(undefined)).toEqual(["password is required"]);
    expect(problems(123456789012)).toEqual(["password must be text"]);
  });
});
