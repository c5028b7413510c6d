// Almost-codes: a code one plausible slip away from the UUID shape the marketplace issues codes in — the letter O
// typed for the digit 0, l or I for 1, a space where a hyphen belongs, one character missing or one too many. The
// upstream only ever answers "invalid" to such a code; this module names the slip ("letter O at position 27 — did
// you mean 0?") and, when the mend is certain, gives the corrected code (canonical: lower case, 8-4-4-4-12) to be
// checked in one click. A missing character cannot be guessed, nor which of several characters is the extra one:
// the slip is named then, without a code.
//
// Used by the checker (browser), the validate API and the bulk results; never under PURCHASE_CODE_FORMAT=exact,
// whose codes are not UUIDs. Positions count code points of the trimmed text from 1, as the normaliser's do.
// Pure and dependency-free besides the normaliser's UUID reader.
import type { PurchaseCodeFormat } from "@/lib/contract/values";

import { canonicalUuid } from "./normalise";

export interface PurchaseCodeSlip {
  /** The slip in words, e.g. "letter O at position 27 — did you mean 0?". */
  slip: string;
  /** The code with the slip mended, canonical; null when the mend cannot be known (a missing character). */
  code: string | null;
}

/** Letters typed for the digits they look like, and a space typed for a hyphen. */
const MISTYPED: Record<string, { meant: string; what: string }> = {
  O: { meant: "0", what: "letter O" },
  o: { meant: "0", what: "letter o" },
  l: { meant: "1", what: "letter l" },
  I: { meant: "1", what: "letter I" },
  " ": { meant: "-", what: "a space" },
};
const HEX_OR_HYPHEN = /^[0-9a-fA-F-]$/;
const GROUPS = [8, 4, 4, 4, 12] as const;
const ORDINALS = ["first", "second", "third", "fourth", "last"] as const;

/** The slip `input` is from a UUID, or null when it is a UUID already, or more than one plausible slip away. */
export function findSlip(input: string): PurchaseCodeSlip | null {
  const chars = Array.from(input.trim());
  if (chars.length === 0 || canonicalUuid(chars.join("")) !== null) return null;
  return mistyped(chars) ?? oneTooMany(chars) ?? oneMissing(chars);
}

/** The slip to offer for a code that was refused or answered invalid, read by `format`: none under `exact`. */
export function slipFor(input: string, format: PurchaseCodeFormat): PurchaseCodeSlip | null {
  return format === "exact" ? null : findSlip(input);
}

/** O for 0, l or I for 1, spaces for hyphens: every such character replaced gives a UUID. */
function mistyped(chars: string[]): PurchaseCodeSlip | null {
  const slips: string[] = [];
  const mended = chars.map((char, index) => {
    if (HEX_OR_HYPHEN.test(char)) return char;
    const typo = MISTYPED[char];
    if (!typo) return "\u0000"; // not a slip of this kind: the text will not read as a UUID
    slips.push(
      typo.meant === "-"
        ? `${typo.what} at position ${index + 1} — did you mean a hyphen?`
        : `${typo.what} at position ${index + 1} — did you mean ${typo.meant}?`,
    );
    return typo.meant;
  });
  const code = canonicalUuid(mended.join(""));
  if (code === null || slips.length === 0) return null;
  const more = slips.length - 1;
  return { slip: more === 0 ? slips[0]! : `${slips[0]!} (and ${more} more like it)`, code };
}

/** One character too many: the mend is certain when every deletion that gives a UUID gives the same one. */
function oneTooMany(chars: string[]): PurchaseCodeSlip | null {
  const mends = new Map<string, number>();
  chars.forEach((_, index) => {
    const code = canonicalUuid([...chars.slice(0, index), ...chars.slice(index + 1)].join(""));
    if (code !== null && !mends.has(code)) mends.set(code, index);
  });
  if (mends.size === 0) return null;
  if (mends.size === 1) {
    const [[code, index]] = [...mends.entries()] as [[string, number]];
    const char = chars[index]!;
    const what = char === "-" ? "an extra hyphen" : `an extra '${char}'`;
    return { slip: `${what} at position ${index + 1} — did you mean to leave it out?`, code };
  }
  const group = shortOrLongGroup(chars, 1);
  return {
    slip: group
      ? `one character too many in the ${group.name} group (${group.length}, not ${group.expected}) — which one cannot be told`
      : `${chars.length} characters, one too many (a purchase code has ${chars.includes("-") ? 36 : 32}) — which one cannot be told`,
    code: null,
  };
}

/** One character missing: named (where, when the hyphens say), never guessed. */
function oneMissing(chars: string[]): PurchaseCodeSlip | null {
  if (!chars.every((char) => HEX_OR_HYPHEN.test(char))) return null;
  const hyphens = chars.filter((char) => char === "-").length;
  if (hyphens === 0) {
    return chars.length === 31
      ? { slip: "31 hexadecimal digits, one missing (a purchase code has 32 without hyphens)", code: null }
      : null;
  }
  const group = shortOrLongGroup(chars, -1);
  return group
    ? {
        slip: `one character missing in the ${group.name} group (${group.length}, not ${group.expected})`,
        code: null,
      }
    : null;
}

/** The one group of an 8-4-4-4-12 text that is `by` characters longer than it should be (all others right). */
function shortOrLongGroup(chars: string[], by: 1 | -1): { name: string; length: number; expected: number } | null {
  const groups = chars.join("").split("-");
  if (groups.length !== GROUPS.length || !groups.every((group) => /^[0-9a-fA-F]*$/.test(group))) return null;
  const off = groups.flatMap((group, index) => (group.length === GROUPS[index] ? [] : [index]));
  if (off.length !== 1) return null;
  const index = off[0]!;
  const length = groups[index]!.length;
  if (length - GROUPS[index]! !== by) return null;
  return { name: ORDINALS[index]!, length, expected: GROUPS[index]! };
}
