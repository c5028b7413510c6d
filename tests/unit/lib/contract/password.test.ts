// The password policy, wherever a password is set: shape, guessability, the account's own email.
import { describe, expect, it } from "vitest";

import { passwordProblem, passwordSchema } from "@/lib/contract/password";

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
    expect(problems("\u0000".repeat(12))).toEqual([
      "password must not contain control characters (U+0000 at position 1)",
    ]);
    expect(problems("good phrase\twith a tab")).toEqual([
      "password must not contain control characters (U+0009 at position 12)",
    ]);
    expect(problems("line one\nline two words")).toEqual([
      "password must not contain control characters (U+000A at position 9)",
    ]);
  });

  it("refuses invisible-only passwords, and does not count invisible characters towards the length", () => {
    expect(problems("\u200b".repeat(12))).toEqual(["password must not be only spaces or invisible characters"]);
    expect(problems("\u200d\u2060\ufeff\u180e".repeat(3))).toEqual([
      "password must not be only spaces or invisible characters",
    ]);
    expect(problems(`Kq8#vZ2${"\u200b".repeat(6)}`)).toEqual([
      "password must be at least 12 characters, not counting invisible ones (such as zero-width spaces)",
    ]);
  });

  it("refuses common and easily guessed passwords, saying why", () => {
    for (const weak of [
      "aaaaaaaaaaaa",
      "password1234",
      "qwertyuiopas",
      "123456789012",
      "iloveyou2024!",
      "gatehouse-admin",
    ]) {
      const [message, ...rest] = problems(weak);
      expect(rest).toEqual([]);
      expect(message).toMatch(/^password is too easy to guess: .+\. Use a longer phrase of unrelated words$/);
    }
    expect(problems("aaaaaaaaaaaa")[0]).toContain('Repeated characters like "aaa" are easy to guess');
  });

  it("refuses the account's own email, or a password built on it, when the account is known", () => {
    expect(passwordProblem("vera@example.com", { email: "Vera@Example.com" })).toBe(
      "password must not contain the account's email",
    );
    expect(passwordProblem("my vera@example.com!", { email: "vera@example.com" })).toBe(
      "password must not contain the account's email",
    );
    expect(passwordProblem("verahoffmann1", { email: "vera@example.com", name: "Vera Hoffmann" })).toMatch(
      /^password is too easy to guess/,
    );
    expect(passwordProblem("admin password for tests", { email: "vera@example.com" })).toBeNull();
  });

  it("says what is missing or of the wrong type", () => {
    expect(problems(undefined)).toEqual(["password is required"]);
    expect(problems(123456789012)).toEqual(["password must be text"]);
  });
});
