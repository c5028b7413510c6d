// GATEHOUSE_KEK and GATEHOUSE_KEK_PREVIOUS: 32 random bytes in base64, refused in one line that never quotes them.
import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { formatProblem } from "@/lib/config/env";
import { missingKekProblem, readKeyEncryptionKeys } from "@/lib/config/kek";

const KEK = randomBytes(32).toString("base64");
const OTHER = randomBytes(32).toString("base64url");

describe("the key-encryption key", () => {
  it("reads 32 random bytes in base64 or base64url, and the previous one during a rotation", () => {
    const { keys, problems } = readKeyEncryptionKeys({ GATEHOUSE_KEK: KEK, GATEHOUSE_KEK_PREVIOUS: OTHER });
    expect(problems).toEqual([]);
    expect(keys.current?.equals(Buffer.from(KEK, "base64"))).toBe(true);
    expect(keys.previous?.length).toBe(32);
    expect(readKeyEncryptionKeys({}).keys).toEqual({ current: null, previous: null });
  });

  it.each([
    ["not base64", "not base64 at all!", "it is not base64"],
    ["16 bytes", randomBytes(16).toString("base64"), "it decodes to 16 bytes"],
    ["a repeated pattern", Buffer.alloc(32, "ab").toString("base64"), "is not random enough to seal keys"],
  ])("refuses %s in one line that does not quote it", (_, value, words) => {
    const { keys, problems } = readKeyEncryptionKeys({ GATEHOUSE_KEK: value });
    expect(keys.current).toBeNull();
    const line = formatProblem(problems[0]!);
    expect(line).toContain(words);
    expect(line).toMatch(/^GATEHOUSE_KEK: /);
    expect(line).not.toContain(value);
  });

  it("refuses a previous key without a current one, or the same key twice", () => {
    expect(readKeyEncryptionKeys({ GATEHOUSE_KEK_PREVIOUS: KEK }).problems[0]?.problem).toMatch(
      /without GATEHOUSE_KEK/,
    );
    expect(readKeyEncryptionKeys({ GATEHOUSE_KEK: KEK, GATEHOUSE_KEK_PREVIOUS: KEK }).problems[0]?.problem).toMatch(
      /the same key/,
    );
  });

  it("says what to set when the store holds sealed keys and there is no KEK", () => {
    expect(formatProblem(missingKekProblem(2))).toMatch(
      /^GATEHOUSE_KEK: is missing, and the store holds 2 upstream keys sealed under it/,
    );
  });
});
