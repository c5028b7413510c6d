// The purchase-code normaliser: what a person pastes, what is checked, and what he is told.
import { describe, expect, it } from "vitest";

import { describeFindings, normalisePurchaseCode } from "@/lib/purchases/normalise";

const CODE = "11111111-1111-4111-8111-111111111111";

describe("normalisePurchaseCode", () => {
  it("leaves a clean code alone and trims the ends", () => {
    expect(normalisePurchaseCode(CODE)).toEqual({ code: CODE, findings: [], usable: true });
    expect(normalisePurchaseCode(`  \t${CODE}\n`)).toEqual({ code: CODE, findings: [], usable: true });
  });

  it("removes invisible characters, at the ends too, and names those inside", () => {
    const result = normalisePurchaseCode(`\ufeff1111\u200b1111-1111-4111-8111-111111111111\u200d`);
    expect(result.code).toBe(CODE);
    expect(result.usable).toBe(true);
    expect(result.findings).toEqual([
      { kind: "invisible", char: "\u200b", codePoint: "U+200B", name: "zero-width space", position: 5, replacement: "" },
    ]);
  });

  it("removes spaces inside the code (a no-break space, a line break)", () => {
    const result = normalisePurchaseCode("11111111-1111\u00a0-4111-8111-\n111111111111");
    expect(result.code).toBe(CODE);
    expect(result.findings.map((f) => [f.kind, f.name])).toEqual([
      ["space", "no-break space"],
      ["space", "line break"],
    ]);
  });

  it("reads look-alikes as the ASCII they imitate: Cyrillic and Greek letters, fullwidth digits, dashes", () => {
    const result = normalisePurchaseCode("ab\u0441d\u2013\uff11\u03bf");
    expect(result.code).toBe("abcd-1o");
    expect(result.usable).toBe(true);
    expect(result.findings.map((f) => [f.name, f.codePoint, f.position, f.replacement])).toEqual([
      ["Cyrillic small letter es", "U+0441", 3, "c"],
      ["en dash", "U+2013", 5, "-"],
      ['fullwidth "1"', "U+FF11", 6, "1"],
      ["Greek small letter omicron", "U+03BF", 7, "o"],
    ]);
  });

  it("refuses a character that looks like nothing in ASCII, and controls count as invisible", () => {
    const result = normalisePurchaseCode("caf\u00e9\u0007-1");
    expect(result.usable).toBe(false);
    expect(result.code).toBe("caf\u00e9-1");
    expect(result.findings.map((f) => f.kind)).toEqual(["foreign", "invisible"]);
    // Characters outside the Basic Multilingual Plane count as one position each.
    expect(normalisePurchaseCode("a\u{1F600}b").findings[0]).toMatchObject({ kind: "foreign", position: 2, codePoint: "U+1F600" });
  });

  it("an empty or blank input is an empty code", () => {
    expect(normalisePurchaseCode(" \u200b ")).toEqual({ code: "", findings: [], usable: true });
  });
});

describe("describeFindings", () => {
  it("says in plain words what was found and done", () => {
    const { findings } = normalisePurchaseCode("1111\u200b\u200b1111 -\u0430");
    expect(describeFindings(findings)).toEqual([
      "The code held 2 invisible characters: zero-width space (U+200B) at position 5, zero-width space (U+200B) at position 6. They were removed.",
      "The code held 1 space inside it: space (U+0020) at position 11. It was removed.",
      'The code held 1 character that looks like a plain letter, digit or hyphen but is not: Cyrillic small letter a (U+0430) at position 13, read as "a".',
    ]);
  });

  it("tells the seller to check a code that cannot be cleaned", () => {
    expect(describeFindings(normalisePurchaseCode("ab\u00e9").findings)).toEqual([
      'The code holds 1 character that cannot be part of a purchase code: "é" (U+00E9) at position 3. Check the code with the buyer.',
    ]);
  });

  it("says nothing about a clean code", () => {
    expect(describeFindings([])).toEqual([]);
  });
});
