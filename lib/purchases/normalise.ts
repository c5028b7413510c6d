// Purchase codes arrive pasted from e-mails, PDFs and chat apps, which slip in characters a person cannot see
// (zero-width spaces, byte-order marks, direction marks) or cannot tell apart (a Cyrillic "а" for a Latin "a",
// a fullwidth "１", an en dash for a hyphen). The upstream matches codes exactly, so such a code is "invalid"
// with no hint why. This module finds those characters, says what they are, and gives the cleaned code.
// Pure and dependency-free: the purchase form uses it in the browser; later the API may use it too.

export type PurchaseCodeFindingKind =
  /** Invisible: zero-width and format characters, control characters; removed. */
  | "invisible"
  /** Whitespace inside the code (spaces, no-break spaces, line breaks); removed. */
  | "space"
  /** Looks like an ASCII character but is not; replaced by that character. */
  | "lookalike"
  /** Not ASCII and like no ASCII character: the code cannot be cleaned. */
  | "foreign";

export interface PurchaseCodeFinding {
  kind: PurchaseCodeFindingKind;
  /** The character as found. */
  char: string;
  /** "U+200B". */
  codePoint: string;
  /** A name a person can read, e.g. "zero-width space", "Cyrillic small letter a". */
  name: string;
  /** 1-based position in the trimmed code, counted in characters. */
  position: number;
  /** What it became in the cleaned code ("" when removed); absent for "foreign". */
  replacement?: string;
}

export interface NormalisedPurchaseCode {
  /** The code trimmed, with invisible characters and spaces removed and look-alikes replaced. */
  code: string;
  findings: PurchaseCodeFinding[];
  /** False when a character could not be cleaned ("foreign"): the code should not be sent as is. */
  usable: boolean;
}

const INVISIBLE_NAMES: Record<number, string> = {
  0x00ad: "soft hyphen",
  0x034f: "combining grapheme joiner",
  0x061c: "Arabic letter mark",
  0x180e: "Mongolian vowel separator",
  0x200b: "zero-width space",
  0x200c: "zero-width non-joiner",
  0x200d: "zero-width joiner",
  0x200e: "left-to-right mark",
  0x200f: "right-to-left mark",
  0x2060: "word joiner",
  0xfeff: "zero-width no-break space (byte-order mark)",
};

function invisibleName(cp: number): string | null {
  if (INVISIBLE_NAMES[cp]) return INVISIBLE_NAMES[cp];
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return "control character";
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return "text direction control";
  if (cp >= 0x2061 && cp <= 0x2064) return "invisible operator";
  if (cp >= 0xfe00 && cp <= 0xfe0f) return "variation selector";
  return null;
}

// Spaces are kept apart from invisible characters: a person can see them, but they still do not belong.
function spaceName(char: string): string | null {
  if (char === " ") return "space";
  if (char === "\u00a0" || char === "\u202f") return "no-break space";
  if (char === "\t") return "tab";
  if (char === "\n" || char === "\r" || char === "\u2028" || char === "\u2029") return "line break";
  return /\s/u.test(char) ? "space" : null;
}

// Characters people cannot tell from ASCII in most fonts: Cyrillic and Greek capitals and small letters that
// share a shape with Latin ones, and dashes and minus signs that look like a hyphen.
const LOOKALIKES: Record<string, [ascii: string, name: string]> = {
  "\u0430": ["a", "Cyrillic small letter a"],
  "\u0435": ["e", "Cyrillic small letter ie"],
  "\u043e": ["o", "Cyrillic small letter o"],
  "\u0440": ["p", "Cyrillic small letter er"],
  "\u0441": ["c", "Cyrillic small letter es"],
  "\u0445": ["x", "Cyrillic small letter ha"],
  "\u0443": ["y", "Cyrillic small letter u"],
  "\u0456": ["i", "Cyrillic small letter Byelorussian-Ukrainian i"],
  "\u0455": ["s", "Cyrillic small letter dze"],
  "\u0458": ["j", "Cyrillic small letter je"],
  "\u0501": ["d", "Cyrillic small letter komi de"],
  "\u04bb": ["h", "Cyrillic small letter shha"],
  "\u0410": ["A", "Cyrillic capital letter a"],
  "\u0412": ["B", "Cyrillic capital letter ve"],
  "\u0415": ["E", "Cyrillic capital letter ie"],
  "\u041a": ["K", "Cyrillic capital letter ka"],
  "\u041c": ["M", "Cyrillic capital letter em"],
  "\u041d": ["H", "Cyrillic capital letter en"],
  "\u041e": ["O", "Cyrillic capital letter o"],
  "\u0420": ["P", "Cyrillic capital letter er"],
  "\u0421": ["C", "Cyrillic capital letter es"],
  "\u0422": ["T", "Cyrillic capital letter te"],
  "\u0425": ["X", "Cyrillic capital letter ha"],
  "\u0406": ["I", "Cyrillic capital letter Byelorussian-Ukrainian i"],
  "\u0391": ["A", "Greek capital letter alpha"],
  "\u0392": ["B", "Greek capital letter beta"],
  "\u0395": ["E", "Greek capital letter epsilon"],
  "\u0396": ["Z", "Greek capital letter zeta"],
  "\u0397": ["H", "Greek capital letter eta"],
  "\u0399": ["I", "Greek capital letter iota"],
  "\u039a": ["K", "Greek capital letter kappa"],
  "\u039c": ["M", "Greek capital letter mu"],
  "\u039d": ["N", "Greek capital letter nu"],
  "\u039f": ["O", "Greek capital letter omicron"],
  "\u03a1": ["P", "Greek capital letter rho"],
  "\u03a4": ["T", "Greek capital letter tau"],
  "\u03a7": ["X", "Greek capital letter chi"],
  "\u03bf": ["o", "Greek small letter omicron"],
  "\u2010": ["-", "hyphen (typographic)"],
  "\u2011": ["-", "non-breaking hyphen"],
  "\u2012": ["-", "figure dash"],
  "\u2013": ["-", "en dash"],
  "\u2014": ["-", "em dash"],
  "\u2015": ["-", "horizontal bar"],
  "\u2212": ["-", "minus sign"],
  "\ufe63": ["-", "small hyphen-minus"],
};

function lookalike(char: string, cp: number): [ascii: string, name: string] | null {
  const known = LOOKALIKES[char];
  if (known) return known;
  // Fullwidth forms (U+FF01–U+FF5E) mirror ASCII 0x21–0x7E, as phone keyboards for CJK scripts type them.
  if (cp >= 0xff01 && cp <= 0xff5e) return [String.fromCodePoint(cp - 0xfee0), `fullwidth "${String.fromCodePoint(cp - 0xfee0)}"`];
  return null;
}

export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Trims the code and cleans what a person cannot see or tell apart, listing every change. */
export function normalisePurchaseCode(input: string): NormalisedPurchaseCode {
  // Trimming also removes invisible characters at the ends: a BOM or zero-width space is as likely there.
  const trimmed = input.replace(/^[\s\u200b-\u200f\u2060\ufeff]+|[\s\u200b-\u200f\u2060\ufeff]+$/gu, "");
  const findings: PurchaseCodeFinding[] = [];
  let code = "";
  let position = 0;
  for (const char of trimmed) {
    position += 1;
    const cp = char.codePointAt(0) ?? 0;
    if (cp >= 0x21 && cp <= 0x7e) {
      code += char;
      continue;
    }
    const base = { char, codePoint: codePointLabel(cp), position };
    const space = spaceName(char);
    const invisible = space ? null : invisibleName(cp);
    const similar = space || invisible ? null : lookalike(char, cp);
    if (space) findings.push({ ...base, kind: "space", name: space, replacement: "" });
    else if (invisible) findings.push({ ...base, kind: "invisible", name: invisible, replacement: "" });
    else if (similar) {
      findings.push({ ...base, kind: "lookalike", name: similar[1], replacement: similar[0] });
      code += similar[0];
    } else {
      findings.push({ ...base, kind: "foreign", name: `"${char}"` });
      code += char;
    }
  }
  return { code, findings, usable: findings.every((finding) => finding.kind !== "foreign") };
}

/** One sentence per kind of finding, for the person who pasted the code. */
export function describeFindings(findings: readonly PurchaseCodeFinding[]): string[] {
  const byKind = (kind: PurchaseCodeFindingKind) => findings.filter((finding) => finding.kind === kind);
  const list = (items: PurchaseCodeFinding[]) =>
    items.map((finding) => `${finding.name} (${finding.codePoint}) at position ${finding.position}`).join(", ");
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const sentences: string[] = [];
  const invisible = byKind("invisible");
  if (invisible.length > 0) {
    const removed = invisible.length === 1 ? "It was removed." : "They were removed.";
    sentences.push(`The code held ${count(invisible.length, "invisible character", "invisible characters")}: ${list(invisible)}. ${removed}`);
  }
  const spaces = byKind("space");
  if (spaces.length > 0) {
    sentences.push(`The code held ${count(spaces.length, "space", "spaces")} inside it: ${list(spaces)}. ${spaces.length === 1 ? "It was" : "They were"} removed.`);
  }
  const lookalikes = byKind("lookalike");
  if (lookalikes.length > 0) {
    const detail = lookalikes
      .map((finding) => `${finding.name} (${finding.codePoint}) at position ${finding.position}, read as "${finding.replacement}"`)
      .join(", ");
    sentences.push(
      `The code held ${count(lookalikes.length, "character that looks like", "characters that look like")} a plain letter, digit or hyphen but ${lookalikes.length === 1 ? "is" : "are"} not: ${detail}.`,
    );
  }
  const foreign = byKind("foreign");
  if (foreign.length > 0) {
    sentences.push(
      `The code holds ${count(foreign.length, "character", "characters")} that cannot be part of a purchase code: ${list(foreign)}. Check the code with the buyer.`,
    );
  }
  return sentences;
}
