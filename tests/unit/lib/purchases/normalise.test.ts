// The purchase-code normaliser: what a person pastes, the code that is checked, or the sentence that says why
// it cannot be one.
import { describe, expect, it } from "vitest";

import {
  correctPurchaseCode,
  normalisePurchaseCode,
  PURCHASE_CODE_MAX_LENGTH,
  purchaseCodeForms,
} from "@/lib/purchases/normalise";

const CODE = "11111111-1111-4111-8111-111111111111";

type Case = [description: string, input: string, expected: { code: string; notes?: string[] } | { reason: string }];

const CASES: Case[] = [
  // Clean codes and trimming
  ["a clean code", CODE, { code: CODE }],
  ["spaces, a tab and a line break at the ends", `  \t${CODE}\r\n`, { code: CODE }],
  ["no-break and ideographic spaces at the ends", `\u00a0${CODE}\u3000`, { code: CODE }],
  [
    "a byte-order mark before the code",
    `\ufeff${CODE}`,
    { code: CODE, notes: ["A byte-order mark (U+FEFF) before the code was removed."] },
  ],
  [
    "a zero-width space after the code",
    `${CODE}\u200b `,
    { code: CODE, notes: ["A zero-width space (U+200B) after the code was removed."] },
  ],
  // Invisible characters inside
  [
    "a zero-width space inside",
    "11111111\u200b-1111",
    { code: "11111111-1111", notes: ["Character 9, a zero-width space (U+200B), was removed."] },
  ],
  [
    "a zero-width non-joiner",
    "ab\u200ccd",
    { code: "abcd", notes: ["Character 3, a zero-width non-joiner (U+200C), was removed."] },
  ],
  [
    "a zero-width joiner",
    "ab\u200dcd",
    { code: "abcd", notes: ["Character 3, a zero-width joiner (U+200D), was removed."] },
  ],
  ["a word joiner", "ab\u2060cd", { code: "abcd", notes: ["Character 3, a word joiner (U+2060), was removed."] }],
  [
    "a byte-order mark inside",
    "ab\ufeffcd",
    { code: "abcd", notes: ["Character 3, a byte-order mark (U+FEFF), was removed."] },
  ],
  ["a soft hyphen", "ab\u00adcd", { code: "abcd", notes: ["Character 3, a soft hyphen (U+00AD), was removed."] }],
  [
    "a left-to-right mark",
    "ab\u200ecd",
    { code: "abcd", notes: ["Character 3, a left-to-right mark (U+200E), was removed."] },
  ],
  [
    "a right-to-left override",
    "ab\u202ecd",
    { code: "abcd", notes: ["Character 3, a right-to-left override (U+202E), was removed."] },
  ],
  [
    "a first strong isolate",
    "ab\u2068cd",
    { code: "abcd", notes: ["Character 3, a first strong isolate (U+2068), was removed."] },
  ],
  [
    "a variation selector",
    "ab\ufe0fcd",
    { code: "abcd", notes: ["Character 3, a variation selector-16 (U+FE0F), was removed."] },
  ],
  [
    "an invisible operator",
    "ab\u2062cd",
    { code: "abcd", notes: ["Character 3, an invisible times (U+2062), was removed."] },
  ],
  [
    "a combining grapheme joiner",
    "ab\u034fcd",
    { code: "abcd", notes: ["Character 3, a combining grapheme joiner (U+034F), was removed."] },
  ],
  [
    "a Mongolian vowel separator",
    "ab\u180ecd",
    { code: "abcd", notes: ["Character 3, a Mongolian vowel separator (U+180E), was removed."] },
  ],
  [
    "a tag character (outside the BMP: one position)",
    "a\u{1F600}\u{E0041}b",
    {
      code: "a\u{1F600}b",
      notes: ["Character 3, a tag character (U+E0041), was removed."],
    },
  ],
  ["a Hangul filler", "ab\u3164cd", { code: "abcd", notes: ["Character 3, a Hangul filler (U+3164), was removed."] }],
  // Compatibility forms: the same character in another form, read as it
  [
    "full-width digits",
    "1111111\uff11",
    { code: "11111111", notes: ["Character 8 is a full-width '\uff11' (U+FF11); read as '1'."] },
  ],
  [
    "a full-width letter and hyphen",
    "\uff21\uff0db",
    {
      code: "A-b",
      notes: [
        "Character 1 is a full-width '\uff21' (U+FF21); read as 'A'.",
        "Character 2 is a full-width '\uff0d' (U+FF0D); read as '-'.",
      ],
    },
  ],
  [
    "the ligature ff",
    "o\ufb00er",
    { code: "offer", notes: ["Character 2 is a ligature '\ufb00' (U+FB00); read as 'ff'."] },
  ],
  [
    "the ligature fi",
    "\ufb01x",
    { code: "fix", notes: ["Character 1 is a ligature '\ufb01' (U+FB01); read as 'fi'."] },
  ],
  [
    "a superscript two",
    "x\u00b2",
    { code: "x2", notes: ["Character 2 is a superscript '\u00b2' (U+00B2); read as '2'."] },
  ],
  ["a circled digit", "a\u2460", { code: "a1", notes: ["Character 2 is an enclosed '\u2460' (U+2460); read as '1'."] }],
  [
    "a mathematical bold letter",
    "\u{1D400}1",
    { code: "A1", notes: ["Character 1 is a mathematical '\u{1D400}' (U+1D400); read as 'A'."] },
  ],
  [
    "the Kelvin sign",
    "\u212a9",
    { code: "K9", notes: ["Character 1 is a letter-like symbol '\u212a' (U+212A); read as 'K'."] },
  ],
  [
    "a letter and a separately typed accent",
    "cafe\u0301",
    {
      code: "caf\u00e9",
      notes: ["Letters typed in separate parts (a letter and its accent) were joined into single characters."],
    },
  ],
  // Other characters: no format is imposed
  ["an accented letter", "caf\u00e9-1", { code: "caf\u00e9-1" }],
  ["a Chinese character", "\u4e2d-42", { code: "\u4e2d-42" }],
  ["an emoji", "ab\u{1F600}", { code: "ab\u{1F600}" }],
  ["a Cyrillic letter that looks like no Latin one", "ab\u0436", { code: "ab\u0436" }],
  [`exactly ${PURCHASE_CODE_MAX_LENGTH} characters`, "x".repeat(100), { code: "x".repeat(100) }],
  // Look-alikes: a different letter, refused
  ["a Cyrillic a", "1111111a\u0430", { reason: "Character 9 is a Cyrillic '\u0430' (U+0430), not a Latin 'a'." }],
  ["a Cyrillic capital O", "\u041e1", { reason: "Character 1 is a Cyrillic '\u041e' (U+041E), not a Latin 'O'." }],
  [
    "a Cyrillic ze for a three",
    "1\u04172",
    { reason: "Character 2 is a Cyrillic '\u0417' (U+0417), not the digit '3'." },
  ],
  ["a Greek omicron", "f\u03bfo", { reason: "Character 2 is a Greek '\u03bf' (U+03BF), not a Latin 'o'." }],
  ["a Greek capital alpha", "\u0391B", { reason: "Character 1 is a Greek '\u0391' (U+0391), not a Latin 'A'." }],
  ["an Armenian oh", "f\u0585o", { reason: "Character 2 is an Armenian '\u0585' (U+0585), not a Latin 'o'." }],
  ["a dotless i", "l\u0131st", { reason: "Character 2 is a dotless i '\u0131' (U+0131), not a Latin 'i'." }],
  [
    "a styled form of a Greek letter",
    "\u{1D6A8}1",
    {
      reason: "Character 1 is '\u{1D6A8}' (U+1D6A8), a form of a Greek '\u0391' (U+0391), not a Latin 'A'.",
    },
  ],
  // Dashes
  [
    "an en dash",
    "11111111-1111\u20134111",
    { reason: "Character 14 is an en dash '\u2013' (U+2013), not a hyphen '-'." },
  ],
  ["an em dash", "a\u2014b", { reason: "Character 2 is an em dash '\u2014' (U+2014), not a hyphen '-'." }],
  ["a minus sign", "a\u2212b", { reason: "Character 2 is a minus sign '\u2212' (U+2212), not a hyphen '-'." }],
  [
    "a non-breaking hyphen",
    "a\u2011b",
    { reason: "Character 2 is a non-breaking hyphen '\u2011' (U+2011), not a hyphen '-'." },
  ],
  [
    "a superscript minus",
    "a\u207bb",
    { reason: "Character 2 is '\u207b' (U+207B), a form of a minus sign '\u2212' (U+2212), not a hyphen '-'." },
  ],
  // Spaces and controls inside
  ["a space inside", "1111 1111", { reason: "Character 5 is a space; a purchase code has none." }],
  [
    "a no-break space inside",
    "1111\u00a01111",
    { reason: "Character 5 is a no-break space (U+00A0); a purchase code has no spaces." },
  ],
  [
    "an ideographic space inside",
    "ab\u3000cd",
    { reason: "Character 3 is an ideographic space (U+3000); a purchase code has no spaces." },
  ],
  [
    "a spacing accent (a space to Unicode)",
    "a\u00a8b",
    {
      reason:
        "Character 2 is '\u00a8' (U+00A8), which Unicode reads as a space and an accent; a purchase code has no spaces.",
    },
  ],
  ["a bell", "ab\u0007c", { reason: "Character 3 is a control character (U+0007)." }],
  ["a C1 control", "ab\u0090c", { reason: "Character 3 is a control character (U+0090)." }],
  ["a delete", "ab\u007f", { reason: "Character 3 is a control character (U+007F)." }],
  ["a tab inside", "1111\t1111", { reason: "Character 5 is a tab (U+0009), a control character." }],
  ["a line break inside", "1111\n1111", { reason: "Character 5 is a line break (U+000A), a control character." }],
  // Broken text
  [
    "a replacement character",
    "ab\ufffd",
    {
      reason:
        "Character 3 is a replacement character '\ufffd' (U+FFFD): the text was damaged when it was copied. Ask for the code again.",
    },
  ],
  [
    "half of a surrogate pair",
    "ab\ud800",
    {
      reason: "Character 3 (U+D800) is half of a character, not a character: the text was damaged when it was copied.",
    },
  ],
  // Empty and too long
  ["nothing", "", { reason: "Enter a purchase code." }],
  ["only spaces and invisible characters", " \u200b\ufeff\u00a0 ", { reason: "Enter a purchase code." }],
  ["101 characters", "x".repeat(101), { reason: "A purchase code has at most 100 characters; this one has 101." }],
  [
    "123 characters after invisible ones are removed",
    `${"x".repeat(60)}\u200b${"x".repeat(63)}`,
    {
      reason: "A purchase code has at most 100 characters; this one has 123.",
    },
  ],
  ["an emoji counts as one character", "\u{1F600}".repeat(100), { code: "\u{1F600}".repeat(100) }],
];

describe("normalisePurchaseCode", () => {
  it.each(CASES)("%s", (_description, input, expected) => {
    const result = normalisePurchaseCode(input);
    if ("code" in expected) {
      expect(result).toEqual({ ok: true, code: expected.code, notes: expected.notes ?? [] });
    } else {
      expect(result).toMatchObject({ ok: false, reason: expected.reason });
    }
  });

  it("names each problem with its position, code point and the character it passes for", () => {
    expect(normalisePurchaseCode("a\u0441\u2013 \u{1F600}\u0007")).toEqual({
      ok: false,
      reason: [
        "Character 2 is a Cyrillic '\u0441' (U+0441), not a Latin 'c'.",
        "Character 3 is an en dash '\u2013' (U+2013), not a hyphen '-'.",
        "Character 4 is a space; a purchase code has none.",
        "Character 6 is a control character (U+0007).",
      ].join(" "),
      problems: [
        { position: 2, char: "\u0441", codePoint: "U+0441", name: "Cyrillic small letter es", expected: "c" },
        { position: 3, char: "\u2013", codePoint: "U+2013", name: "en dash", expected: "-" },
        { position: 4, char: " ", codePoint: "U+0020", name: "space" },
        { position: 6, char: "\u0007", codePoint: "U+0007", name: "control character" },
      ],
    });
  });

  it("positions count the trimmed input, before invisible characters are removed", () => {
    expect(normalisePurchaseCode(" \ufeffab\u200bc\u0430")).toMatchObject({
      ok: false,
      reason: "Character 5 is a Cyrillic '\u0430' (U+0430), not a Latin 'a'.",
    });
  });

  it("lists five problems and counts the rest", () => {
    const result = normalisePurchaseCode("\u0430".repeat(8));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(8);
    expect(result.reason.match(/Character \d+ is/g)).toHaveLength(5);
    expect(result.reason).toMatch(/Character 5 is a Cyrillic .*\. And 3 more characters like these\.$/);
  });

  it("lists five notes and counts the rest", () => {
    const result = normalisePurchaseCode(`a${"\u200b".repeat(7)}b`);
    expect(result).toMatchObject({ ok: true, code: "ab" });
    if (!result.ok) return;
    expect(result.notes).toHaveLength(6);
    expect(result.notes[5]).toBe("And 2 more characters cleaned the same way.");
  });
});

// A fixed-seed generator over the characters the rules are about, so a failure is reproducible.
function* randomInputs(count: number): Generator<string> {
  const alphabet = Array.from(
    "aZ09-_.\u00e9\u4e2d\u{1F600}\u200b\ufeff\u00ad\u2060\ufe0f\uff11\ufb00\u00b2\u212a\u0301\u0430\u2013 \u00a0\t\u0007",
  );
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let i = 0; i < count; i += 1) {
    const length = next() % 12;
    yield Array.from({ length }, () => alphabet[next() % alphabet.length]).join("");
  }
}

describe("properties", () => {
  it("a clean printable-ASCII code comes back unchanged, without notes", () => {
    for (const code of [CODE, "ABC-123_x.y", "a!#$%&'()*+,/:;<=>?@[\\]^`{|}~z", "x".repeat(100)]) {
      expect(normalisePurchaseCode(code)).toEqual({ ok: true, code, notes: [] });
    }
  });

  it("normalising a cleaned code again changes nothing and says nothing", () => {
    let cleaned = 0;
    for (const input of randomInputs(2000)) {
      const first = normalisePurchaseCode(input);
      if (!first.ok) continue;
      cleaned += 1;
      expect(normalisePurchaseCode(first.code), JSON.stringify(input)).toEqual({
        ok: true,
        code: first.code,
        notes: [],
      });
    }
    // The generator must reach the cleaning paths, not only refusals.
    expect(cleaned).toBeGreaterThan(200);
  });

  it("a refusal always names at least one character by position, or is about emptiness or length", () => {
    for (const input of randomInputs(2000)) {
      const result = normalisePurchaseCode(input);
      if (result.ok) continue;
      if (result.problems.length === 0)
        expect(result.reason).toMatch(/^(Enter a purchase code\.|A purchase code has at most 100 characters)/);
      else expect(result.reason).toMatch(new RegExp(`^Character ${result.problems[0]?.position}\\b`));
    }
  });
});

describe("PURCHASE_CODE_FORMAT", () => {
  const UUID = "9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f";
  const PASTED: Array<[string, string, string]> = [
    ["upper case", UUID.toUpperCase(), "its letters put in lower case"],
    ["no hyphens", UUID.replace(/-/g, ""), "the hyphens added (8-4-4-4-12)"],
    [
      "upper case without hyphens",
      UUID.replace(/-/g, "").toUpperCase(),
      "its letters put in lower case, the hyphens added (8-4-4-4-12)",
    ],
    ["braces", `{${UUID}}`, "the braces around it"],
    ["double quotes", `"${UUID}"`, "the quotes around it"],
    ["single quotes", `'${UUID}'`, "the quotes around it"],
    ["curly quotes", `\u201c${UUID}\u201d`, "the quotes around it"],
    ["urn:uuid:", `urn:uuid:${UUID}`, "the prefix 'urn:uuid:'"],
    ["URN:UUID: upper case", `URN:UUID:${UUID.toUpperCase()}`, "the prefix 'urn:uuid:', its letters put in lower case"],
    ["braces around urn:uuid:", `{urn:uuid:${UUID}}`, "the braces around it, the prefix 'urn:uuid:'"],
    [
      "quotes around braces, with a zero-width space",
      `"{${UUID}}"\u200b`,
      "the quotes around it, the braces around it",
    ],
  ];

  describe.each(["auto", "uuid"] as const)("%s", (format) => {
    it.each(PASTED)(
      "reads a UUID pasted with %s as the canonical code, saying what changed",
      (_what, input, changes) => {
        const result = normalisePurchaseCode(input, format);
        expect(result).toMatchObject({ ok: true, code: UUID });
        if (!result.ok) return;
        expect(result.notes.at(-1)).toBe(`Read as a UUID and sent in its usual form, ${UUID}: ${changes}.`);
        expect(result.typed).toBeDefined();
      },
    );

    it("leaves a canonical UUID as it is, without a note", () => {
      expect(normalisePurchaseCode(UUID, format)).toEqual({ ok: true, code: UUID, notes: [] });
    });

    it("still refuses a look-alike before reading the UUID", () => {
      expect(normalisePurchaseCode(UUID.replace("a", "\u0430"), format)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^Character 13 is a Cyrillic/),
      });
    });
  });

  it("auto sends any other code as cleaned (an upstream whose codes are not UUIDs keeps working)", () => {
    expect(normalisePurchaseCode("ABC-123-xyz", "auto")).toEqual({ ok: true, code: "ABC-123-xyz", notes: [] });
    expect(normalisePurchaseCode("{not-a-uuid}", "auto")).toEqual({ ok: true, code: "{not-a-uuid}", notes: [] });
    expect(normalisePurchaseCode(UUID.slice(1), "auto")).toEqual({ ok: true, code: UUID.slice(1), notes: [] });
  });

  describe("uuid refuses what cannot be a UUID, before any upstream is asked", () => {
    it.each<[string, string, string]>([
      ["one character short", UUID.slice(0, 35), "35 characters; a purchase code has 36"],
      ["one character long", `${UUID}0`, "37 characters; a purchase code has 36"],
      [
        "short without hyphens",
        UUID.replace(/-/g, "").slice(0, 31),
        "31 characters; a purchase code has 36 (32 without hyphens)",
      ],
      [
        "a 'g' at position 9 (counted in the code as pasted)",
        `${UUID.slice(0, 8)}g${UUID.slice(9)}`,
        "'g' at position 9 is not a hexadecimal digit",
      ],
      [
        "a 'g' inside braces",
        `{${UUID.slice(0, 8)}g${UUID.slice(9)}}`,
        "'g' at position 10 is not a hexadecimal digit",
      ],
      [
        "two letters that are not hex digits",
        `zz${UUID.slice(2)}`,
        "'z' at position 1 is not a hexadecimal digit (and 1 more character like it)",
      ],
      [
        "hyphens in the wrong places",
        `${UUID.slice(0, 7)}-${UUID.slice(7, 8)}${UUID.slice(9)}`,
        "The hyphens are not where a purchase code has them",
      ],
      ["a word", "purchase", "'p' at position 1 is not a hexadecimal digit"],
    ])("%s", (_what, input, words) => {
      const result = normalisePurchaseCode(input, "uuid");
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toContain(words);
    });
  });

  describe("exact only removes invisible characters", () => {
    it("sends an upper-case code as typed", () => {
      expect(normalisePurchaseCode(UUID.toUpperCase(), "exact")).toEqual({
        ok: true,
        code: UUID.toUpperCase(),
        notes: [],
      });
    });

    it("removes invisible characters with a note, and the spaces at the ends", () => {
      expect(normalisePurchaseCode(` {${UUID}\u200b}\n`, "exact")).toEqual({
        ok: true,
        code: `{${UUID}}`,
        notes: ["Character 38, a zero-width space (U+200B), was removed."],
      });
    });

    it("changes nothing else: look-alikes and full-width digits are sent as they are", () => {
      expect(normalisePurchaseCode("\u0430b\uff11", "exact")).toEqual({ ok: true, code: "\u0430b\uff11", notes: [] });
    });

    it("still refuses an empty or over-long code", () => {
      expect(normalisePurchaseCode("\u200b", "exact")).toMatchObject({ ok: false, reason: "Enter a purchase code." });
      expect(normalisePurchaseCode("x".repeat(101), "exact")).toMatchObject({
        ok: false,
        reason: expect.stringContaining("at most 100"),
      });
    });
  });

  it("two pasted forms of one UUID are one code, so a bulk list counts them once", () => {
    const codes = PASTED.map(([, input]) => normalisePurchaseCode(input, "auto")).map((result) =>
      result.ok ? result.code : null,
    );
    expect(new Set(codes)).toEqual(new Set([UUID]));
  });

  it("purchaseCodeForms: the forms the history may hold a code in", () => {
    const cleaned = normalisePurchaseCode(`{${UUID.toUpperCase()}}`);
    if (!cleaned.ok) throw new Error("refused");
    expect(purchaseCodeForms(cleaned)).toEqual([
      UUID,
      `{${UUID.toUpperCase()}}`,
      UUID.toUpperCase(),
      UUID.replace(/-/g, ""),
      UUID.replace(/-/g, "").toUpperCase(),
    ]);
    expect(purchaseCodeForms({ code: "ABC-1" })).toEqual(["ABC-1"]);
    expect(purchaseCodeForms({ code: UUID.toUpperCase() }, "exact")).toEqual([UUID.toUpperCase()]);
  });
});

describe("correctPurchaseCode", () => {
  const UUID = "9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f";

  it("replaces each look-alike with what it looks like and marks where", () => {
    // A Cyrillic 'а' at position 13 and an en dash at position 14.
    const pasted = `${UUID.slice(0, 12)}\u0430\u2013${UUID.slice(14)}`;
    expect(correctPurchaseCode(pasted)).toEqual({ code: UUID, changed: [12, 13] });
  });

  it("marks the same characters once invisible characters and the ends are dropped", () => {
    const pasted = ` \u200b${UUID.slice(0, 12)}\u0430${UUID.slice(13)} `;
    expect(correctPurchaseCode(pasted)).toEqual({ code: UUID, changed: [12] });
  });

  it("gives the canonical code for an upper-case UUID with a Cyrillic letter", () => {
    const pasted = `${UUID.toUpperCase().slice(0, 12)}\u0410${UUID.toUpperCase().slice(13)}`;
    expect(correctPurchaseCode(pasted)).toEqual({ code: UUID, changed: [12] });
  });

  it("has no correction for a space or a control character, or for a code that is fine", () => {
    expect(correctPurchaseCode("abc def")).toBeNull();
    expect(correctPurchaseCode("abc\u0007def")).toBeNull();
    expect(correctPurchaseCode(UUID)).toBeNull();
  });

  it("has none when the corrected code is refused too (uuid: still not a UUID)", () => {
    expect(correctPurchaseCode("\u0430bc", "uuid")).toBeNull();
    expect(correctPurchaseCode("\u0430bc", "auto")).toEqual({ code: "abc", changed: [0] });
  });
});
