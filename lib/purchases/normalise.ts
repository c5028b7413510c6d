// Purchase codes arrive pasted from e-mails, PDFs and chat apps, which slip in characters a person cannot see
// (zero-width spaces, byte-order marks, direction marks) or cannot tell apart (a Cyrillic "а" for a Latin "a",
// a full-width "１", an en dash for a hyphen). The upstream matches codes exactly and its code format is not
// documented, so such a code comes back "invalid" with no hint why. This module answers either the clean code
// (with notes on what cleaning changed) or the reason it cannot be one, naming the character and its position.
//
// The rule between cleaning and refusing: what is the SAME character in another form is cleaned, with a note;
// what is a DIFFERENT character that only looks alike is refused. Concretely, in this order, per character of
// the trimmed input (positions count code points from 1, so an emoji is one position):
//   - control characters (C0, DEL, C1; a tab or line break inside the code) are refused;
//   - spaces inside the code (any Unicode space, a no-break space too: NFKC makes it a plain space) are refused;
//   - invisible and format characters (zero-width space/joiners, BOM, soft hyphen, direction marks and
//     isolates, variation selectors, invisible operators, tags, …) are removed, with a note each;
//   - dashes and minus signs that look like a hyphen, and Cyrillic, Greek, Armenian, Cherokee or Latin letters
//     that look like a basic Latin letter or digit (LOOKALIKES below), are refused;
//   - a character that NFKC maps to something else (full-width "１" → "1", ligature "ﬀ" → "ff", superscript
//     "²" → "2") is Unicode's compatibility form of that text, so it is read as that text, with a note;
//     unless what it maps to is itself refused above (a superscript minus is a form of the minus sign);
//   - anything else (é, 中, emoji) is kept: no format is imposed beyond these rules and at most 100 characters.
// The whole code is then put in NFKC, which also joins letters and separately typed accents.
// Then the code format (PURCHASE_CODE_FORMAT, lib/contract/values.ts): under `auto` (the default) a code that is a
// UUID in any case, with or without hyphens, in braces or quotes or after urn:uuid:, is sent in its canonical form
// (lower case, 8-4-4-4-12) with a note, and any other code as cleaned; `uuid` also refuses, before the upstream is
// asked, a code that cannot be a UUID, naming its length or its first character that is not a hex digit; `exact`
// skips all of the above but the removal of invisible characters (and spaces at the ends).
// Pure and dependency-free: the purchase form runs it in the browser, the gateway again on the server.

import { PURCHASE_CODE_MAX_LENGTH, type PurchaseCodeFormat } from "@/lib/contract/values";

import {
  ARMENIAN,
  CHEROKEE,
  CONTROL_NAMES,
  CYRILLIC,
  DASHES,
  GREEK,
  INVISIBLE_NAMES,
  LATIN,
  SPACE_NAMES,
  WRAPPERS,
  type LookalikeRow,
} from "./characters";

export { PURCHASE_CODE_MAX_LENGTH };

export interface PurchaseCodeProblem {
  /** 1-based position in the trimmed input, counted in code points. */
  position: number;
  /** The character as found. */
  char: string;
  /** "U+0430". */
  codePoint: string;
  /** What it is, e.g. "Cyrillic small letter a", "en dash", "control character". */
  name: string;
  /** The ASCII character it was probably meant to be, when it looks like one. */
  expected?: string;
}

export type NormalisedPurchaseCode =
  | {
      ok: true;
      code: string;
      notes: string[];
      /** The code as cleaned before it was read as a UUID, when that changed it ("{9F8E…}"). */
      typed?: string;
    }
  | { ok: false; reason: string; problems: PurchaseCodeProblem[] };

/** Problems named one by one in a reason (and notes in a list) before "and N more". */
const MAX_LISTED = 5;

export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

interface Lookalike {
  looksLike: string;
  /** Unicode name, e.g. "Cyrillic small letter a". */
  name: string;
  /** How a sentence names it, e.g. "a Cyrillic 'а'", "an en dash '–'". */
  described: string;
}

function article(name: string): "a" | "an" {
  return /^[aeiou]/i.test(name) ? "an" : "a";
}

const LOOKALIKES = new Map<string, Lookalike>();
function addScript(script: string, rows: readonly LookalikeRow[]) {
  for (const [char, looksLike, name] of rows) {
    LOOKALIKES.set(char, { looksLike, name: `${script} ${name}`, described: `${article(script)} ${script} '${char}'` });
  }
}
addScript("Cyrillic", CYRILLIC);
addScript("Greek", GREEK);
addScript("Armenian", ARMENIAN);
addScript("Cherokee", CHEROKEE);
for (const [char, looksLike, name] of LATIN) {
  const letter = name.replace(/^(small )?letter /, "");
  LOOKALIKES.set(char, { looksLike, name: `Latin ${name}`, described: `${article(letter)} ${letter} '${char}'` });
}
for (const [char, looksLike, name] of DASHES)
  LOOKALIKES.set(char, { looksLike, name, described: `${article(name)} ${name} '${char}'` });

function expectedPhrase(looksLike: string): string {
  if (looksLike === "-") return "a hyphen '-'";
  if (/^[0-9]$/.test(looksLike)) return `the digit '${looksLike}'`;
  return `a Latin '${looksLike}'`;
}

// ---------------------------------------------------------------------------------------------------------
// Invisible characters. Anything of category Cf (format) or Default_Ignorable_Code_Point is removed; these are
// the ones people meet, named so the note is worth reading.

const INVISIBLE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;

function invisibleName(codePoint: number, char: string): string | null {
  const named = INVISIBLE_NAMES[codePoint];
  if (named) return named;
  if ((codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef)) {
    return `variation selector-${codePoint <= 0xfe0f ? codePoint - 0xfe00 + 1 : codePoint - 0xe0100 + 17}`;
  }
  if (codePoint >= 0x180b && codePoint <= 0x180f) return "Mongolian free variation selector";
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f) return "tag character";
  return INVISIBLE.test(char) ? "invisible formatting character" : null;
}

// ---------------------------------------------------------------------------------------------------------
// Controls and spaces: refused inside the code (at its ends, spaces are trimmed).

const CONTROL = /^\p{Cc}$/u;
const WHITE_SPACE = /^\p{White_Space}$/u;

// ---------------------------------------------------------------------------------------------------------
// Compatibility forms (NFKC): named by the block they come from, for the note.

function compatibilityKind(codePoint: number): string {
  if (codePoint >= 0xff01 && codePoint <= 0xffef) return "a full-width";
  if (codePoint >= 0xfb00 && codePoint <= 0xfb4f) return "a ligature";
  if (codePoint === 0xb2 || codePoint === 0xb3 || codePoint === 0xb9 || (codePoint >= 0x2070 && codePoint <= 0x207f))
    return "a superscript";
  if (codePoint >= 0x2080 && codePoint <= 0x209f) return "a subscript";
  if (codePoint >= 0x1d2c && codePoint <= 0x1d6a) return "a superscript";
  if (codePoint >= 0x02b0 && codePoint <= 0x02ff) return "a modifier letter";
  if ((codePoint >= 0x2460 && codePoint <= 0x24ff) || (codePoint >= 0x1f100 && codePoint <= 0x1f1ff))
    return "an enclosed";
  if (codePoint >= 0x1d400 && codePoint <= 0x1d7ff) return "a mathematical";
  if (codePoint >= 0x2160 && codePoint <= 0x2188) return "a Roman numeral";
  if (codePoint >= 0x2100 && codePoint <= 0x214f) return "a letter-like symbol";
  if (codePoint >= 0xfe50 && codePoint <= 0xfe6f) return "a small";
  return "a compatibility character";
}

// ---------------------------------------------------------------------------------------------------------

type Verdict =
  | { kind: "keep"; text: string; note?: string }
  | { kind: "remove"; name: string }
  | { kind: "refuse"; problem: Omit<PurchaseCodeProblem, "position">; sentence: string };

/** What to do with one character of the trimmed input; `at` is "Character 9". */
function judge(char: string, at: string): Verdict {
  const codePoint = char.codePointAt(0) ?? 0;
  if (codePoint >= 0x21 && codePoint <= 0x7e) return { kind: "keep", text: char };
  const label = codePointLabel(codePoint);
  const refuse = (name: string, sentence: string, expected?: string): Verdict => ({
    kind: "refuse",
    problem: { char, codePoint: label, name, ...(expected === undefined ? {} : { expected }) },
    sentence,
  });

  if (CONTROL.test(char)) {
    const name = CONTROL_NAMES[codePoint];
    return name
      ? refuse(name, `${at} is a ${name} (${label}), a control character.`)
      : refuse("control character", `${at} is a control character (${label}).`);
  }
  if (WHITE_SPACE.test(char)) {
    const name = SPACE_NAMES[codePoint];
    return name
      ? refuse(name, `${at} is ${article(name)} ${name} (${label}); a purchase code has no spaces.`)
      : refuse(
          "space",
          codePoint === 0x20
            ? `${at} is a space; a purchase code has none.`
            : `${at} is a space (${label}); a purchase code has none.`,
        );
  }
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
    return refuse(
      "lone surrogate",
      `${at} (${label}) is half of a character, not a character: the text was damaged when it was copied.`,
    );
  }
  if (codePoint === 0xfffd) {
    return refuse(
      "replacement character",
      `${at} is a replacement character '\ufffd' (${label}): the text was damaged when it was copied. Ask for the code again.`,
    );
  }
  const invisible = invisibleName(codePoint, char);
  if (invisible) return { kind: "remove", name: invisible };
  const lookalike = LOOKALIKES.get(char);
  if (lookalike) {
    return refuse(
      lookalike.name,
      `${at} is ${lookalike.described} (${label}), not ${expectedPhrase(lookalike.looksLike)}.`,
      lookalike.looksLike,
    );
  }

  const folded = char.normalize("NFKC");
  if (folded === char) return { kind: "keep", text: char };
  // A compatibility form of something refused above is refused as that, saying what it is a form of.
  for (const part of folded) {
    const verdict = judge(part, at);
    if (verdict.kind !== "refuse") continue;
    const problem = { ...verdict.problem, char, codePoint: label };
    // Spacing accents (¨ ´ ¸) are a space plus a combining accent to Unicode.
    if (WHITE_SPACE.test(part)) {
      return {
        kind: "refuse",
        problem: { char, codePoint: label, name: "spacing accent" },
        sentence: `${at} is '${char}' (${label}), which Unicode reads as a space and an accent; a purchase code has no spaces.`,
      };
    }
    return {
      kind: "refuse",
      problem,
      sentence: `${at} is '${char}' (${label}), a form of ${verdict.sentence.replace(`${at} is `, "")}`,
    };
  }
  const kind = compatibilityKind(codePoint);
  return { kind: "keep", text: folded, note: `${at} is ${kind} '${char}' (${label}); read as '${folded}'.` };
}

function isTrimmable(char: string): boolean {
  const codePoint = char.codePointAt(0) ?? 0;
  return WHITE_SPACE.test(char) || invisibleName(codePoint, char) !== null;
}

function listWithMore(sentences: string[], one: string, many: string): string[] {
  if (sentences.length <= MAX_LISTED) return sentences;
  const more = sentences.length - MAX_LISTED;
  return [...sentences.slice(0, MAX_LISTED), `And ${more} more ${more === 1 ? one : many}.`];
}

/** Trims a pasted purchase code and cleans or refuses it by `format` (PURCHASE_CODE_FORMAT); see the header. */
export function normalisePurchaseCode(input: string, format: PurchaseCodeFormat = "auto"): NormalisedPurchaseCode {
  if (format === "exact") return exactCode(input);
  const cleaned = cleanCode(input);
  if (!cleaned.ok) return cleaned;
  return readAsUuid(cleaned.code, cleaned.notes, format);
}

/** Today's cleaning (every format but `exact`): invisible characters removed, compatibility forms read, look-alikes refused. */
function cleanCode(input: string): NormalisedPurchaseCode {
  const chars = Array.from(input);
  let start = 0;
  let end = chars.length;
  while (start < end && isTrimmable(chars[start] ?? "")) start += 1;
  while (end > start && isTrimmable(chars[end - 1] ?? "")) end -= 1;

  const notes: string[] = [];
  const endNote = (char: string, where: "before" | "after") => {
    const codePoint = char.codePointAt(0) ?? 0;
    const name = invisibleName(codePoint, char);
    // Ordinary whitespace at the ends is trimmed without a word; an invisible character is worth one.
    if (name && !WHITE_SPACE.test(char))
      notes.push(`${capitalise(article(name))} ${name} (${codePointLabel(codePoint)}) ${where} the code was removed.`);
  };
  for (const char of chars.slice(0, start)) endNote(char, "before");

  const problems: PurchaseCodeProblem[] = [];
  const sentences: string[] = [];
  let cleaned = "";
  const trimmed = chars.slice(start, end);
  trimmed.forEach((char, index) => {
    const position = index + 1;
    const verdict = judge(char, `Character ${position}`);
    if (verdict.kind === "keep") {
      cleaned += verdict.text;
      if (verdict.note) notes.push(verdict.note);
    } else if (verdict.kind === "remove") {
      notes.push(
        `Character ${position}, ${article(verdict.name)} ${verdict.name} (${codePointLabel(char.codePointAt(0) ?? 0)}), was removed.`,
      );
    } else {
      problems.push({ position, ...verdict.problem });
      sentences.push(verdict.sentence);
    }
  });
  for (const char of chars.slice(end)) endNote(char, "after");

  if (problems.length > 0) {
    return {
      ok: false,
      reason: listWithMore(sentences, "character like these", "characters like these").join(" "),
      problems,
    };
  }
  if (cleaned === "") return { ok: false, reason: "Enter a purchase code.", problems: [] };

  const code = cleaned.normalize("NFKC");
  if (code !== cleaned)
    notes.push("Letters typed in separate parts (a letter and its accent) were joined into single characters.");
  const tooLong = lengthRefusal(code);
  if (tooLong) return tooLong;
  return {
    ok: true,
    code,
    notes: listWithMore(notes, "character cleaned the same way", "characters cleaned the same way"),
  };
}

function lengthRefusal(code: string): NormalisedPurchaseCode | null {
  const length = Array.from(code).length;
  if (length <= PURCHASE_CODE_MAX_LENGTH) return null;
  return {
    ok: false,
    reason: `A purchase code has at most ${PURCHASE_CODE_MAX_LENGTH} characters; this one has ${length}.`,
    problems: [],
  };
}

/** `exact`: invisible characters are removed (with a note, as always), and nothing else is changed. */
function exactCode(input: string): NormalisedPurchaseCode {
  const notes: string[] = [];
  let code = "";
  const chars = Array.from(input);
  let start = 0;
  let end = chars.length;
  // Spaces and line breaks at the ends are as invisible as a zero-width space: a pasted line's end is not the code.
  while (start < end && isTrimmable(chars[start] ?? "")) start += 1;
  while (end > start && isTrimmable(chars[end - 1] ?? "")) end -= 1;
  chars.slice(start, end).forEach((char, index) => {
    const codePoint = char.codePointAt(0) ?? 0;
    const name = invisibleName(codePoint, char);
    if (name)
      notes.push(`Character ${index + 1}, ${article(name)} ${name} (${codePointLabel(codePoint)}), was removed.`);
    else code += char;
  });
  if (code === "") return { ok: false, reason: "Enter a purchase code.", problems: [] };
  return (
    lengthRefusal(code) ?? {
      ok: true,
      code,
      notes: listWithMore(notes, "character cleaned the same way", "characters cleaned the same way"),
    }
  );
}

// ---------------------------------------------------------------------------------------------------------
// UUIDs. Marketplaces issue purchase codes as lower-case UUIDs (9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f); buyers
// paste them upper-case, without hyphens, in braces or quotes, or as urn:uuid:…, and the upstream matches codes
// exactly. A code that is a UUID in any of these forms is sent in the canonical one (lower case, 8-4-4-4-12).

const UUID_HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_BARE = /^[0-9a-f]{32}$/i;
const HEX_OR_HYPHEN = /^[0-9a-fA-F-]$/;
/** A UUID's length with its hyphens, and without. */
const UUID_LENGTH = 36;
const UUID_HEX_DIGITS = 32;
const URN_PREFIX = "urn:uuid:";

/** The code without what buyers wrap a UUID in; `offset` is how many characters went from its start. */
function unwrap(code: string): { body: string; offset: number; removed: string[] } {
  let body = code;
  let offset = 0;
  const removed: string[] = [];
  // At most a few layers ("{urn:uuid:…}", '"{…}"'): a code is not an onion.
  for (let layer = 0; layer < 3; layer += 1) {
    const wrapper = WRAPPERS.find(([open, close]) => body.length > 2 && body.startsWith(open) && body.endsWith(close));
    if (wrapper) {
      body = body.slice(wrapper[0].length, body.length - wrapper[1].length).trim();
      offset += wrapper[0].length;
      removed.push(wrapper[2]);
      continue;
    }
    if (body.toLowerCase().startsWith(URN_PREFIX)) {
      body = body.slice(URN_PREFIX.length);
      offset += URN_PREFIX.length;
      removed.push(`the prefix '${URN_PREFIX}'`);
      continue;
    }
    break;
  }
  return { body, offset, removed };
}

/** The canonical form of a UUID in any case, with or without hyphens; null when `body` is not one. */
export function canonicalUuid(body: string): string | null {
  if (UUID_HYPHENATED.test(body)) return body.toLowerCase();
  if (!UUID_BARE.test(body)) return null;
  const hex = body.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `auto` and `uuid`: a UUID in any pasted form is sent canonical; under `uuid`, anything else is refused. */
function readAsUuid(code: string, notes: string[], format: "auto" | "uuid"): NormalisedPurchaseCode {
  const { body, offset, removed } = unwrap(code);
  const canonical = canonicalUuid(body);
  if (canonical !== null) {
    if (canonical === code) return { ok: true, code, notes };
    const changes = [...removed];
    if (body !== body.toLowerCase()) changes.push("its letters put in lower case");
    if (!body.includes("-")) changes.push("the hyphens added (8-4-4-4-12)");
    const note = `Read as a UUID and sent in its usual form, ${canonical}: ${changes.join(", ")}.`;
    return { ok: true, code: canonical, notes: [...notes, note], typed: code };
  }
  if (format === "auto") return { ok: true, code, notes };
  return { ok: false, reason: notAUuid(body, offset), problems: [] };
}

/** Why `body` cannot be a purchase code under `uuid`: the first character that is not a hex digit, or its length. */
function notAUuid(body: string, offset: number): string {
  const chars = Array.from(body);
  const bad = chars.findIndex((char) => !HEX_OR_HYPHEN.test(char));
  const example = "like 9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f";
  if (bad >= 0) {
    const others = chars.filter((char, index) => index > bad && !HEX_OR_HYPHEN.test(char)).length;
    const more = others === 0 ? "" : ` (and ${others} more ${others === 1 ? "character" : "characters"} like it)`;
    return `'${chars[bad]}' at position ${offset + bad + 1} is not a hexadecimal digit${more}: a purchase code has only 0-9, a-f and hyphens, ${example}.`;
  }
  const hyphens = chars.filter((char) => char === "-").length;
  if (hyphens === 0 && chars.length !== UUID_HEX_DIGITS) {
    return `${chars.length} ${chars.length === 1 ? "character" : "characters"}; a purchase code has ${UUID_LENGTH} (${UUID_HEX_DIGITS} without hyphens), ${example}.`;
  }
  if (chars.length !== UUID_LENGTH)
    return `${chars.length} ${chars.length === 1 ? "character" : "characters"}; a purchase code has ${UUID_LENGTH}, ${example}.`;
  return `The hyphens are not where a purchase code has them: it is written in groups of 8-4-4-4-12 characters, ${example}.`;
}

/**
 * The forms a cleaned code may have been stored in by the history, which hashes the code as it was sent: before
 * codes were read as UUIDs, "9F8E…" was sent (and hashed) as typed. So a search finds a code whatever form it
 * was checked in: the canonical form, the form searched for, and a UUID's upper-case and hyphen-less forms.
 * (Braced or quoted forms stored before are found when searched in the same form.)
 */
export function purchaseCodeForms(
  cleaned: { code: string; typed?: string },
  format: PurchaseCodeFormat = "auto",
): string[] {
  const forms = [cleaned.code];
  // Under exact, a code is one code only as typed: the upstream is asked for it so.
  if (format === "exact") return forms;
  if (cleaned.typed !== undefined) forms.push(cleaned.typed);
  if (UUID_HYPHENATED.test(cleaned.code)) {
    const bare = cleaned.code.replace(/-/g, "");
    forms.push(cleaned.code.toLowerCase(), cleaned.code.toUpperCase(), bare.toLowerCase(), bare.toUpperCase());
  }
  return [...new Set(forms)];
}

// ---------------------------------------------------------------------------------------------------------
// Correct and check: a code refused only for look-alikes (a Cyrillic 'а', an en dash) has an obvious correction.

export interface CorrectedPurchaseCode {
  /** The code with each look-alike replaced by what it looks like, cleaned like any other. */
  code: string;
  /** Indexes (code points, from 0) of `code` that were replaced, to mark them. */
  changed: number[];
}

/**
 * The code a refusal was probably meant to be: each look-alike replaced by the character it looks like. Null when
 * some problem has no obvious correction (a control character, a space) or the corrected code is refused too.
 */
export function correctPurchaseCode(input: string, format: PurchaseCodeFormat = "auto"): CorrectedPurchaseCode | null {
  const first = normalisePurchaseCode(input, format);
  if (first.ok || first.problems.length === 0 || first.problems.some((problem) => problem.expected === undefined))
    return null;
  const byPosition = new Map(first.problems.map((problem) => [problem.position, problem.expected!]));
  const chars = Array.from(input);
  let start = 0;
  while (start < chars.length && isTrimmable(chars[start] ?? "")) start += 1;
  // The trimmed input with the look-alikes replaced, and which of its characters were.
  const parts: Array<{ char: string; changed: boolean }> = [];
  chars.slice(start).forEach((char, index) => {
    const expected = byPosition.get(index + 1);
    parts.push(expected === undefined ? { char, changed: false } : { char: expected, changed: true });
  });
  const fixed = normalisePurchaseCode(parts.map((part) => part.char).join(""), format);
  if (!fixed.ok) return null;
  // Mark the replaced characters when cleaning kept the code's length (case and invisible characters aside).
  const kept = parts.filter((part) => !isTrimmable(part.char) || part.changed);
  const code = Array.from(fixed.code);
  const changed = kept.length === code.length ? kept.flatMap((part, index) => (part.changed ? [index] : [])) : [];
  return { code: fixed.code, changed };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** True when the text holds nothing but spaces and invisible characters (a blank line in a pasted list). */
export function isBlankPurchaseCode(text: string): boolean {
  return Array.from(text).every(isTrimmable);
}
