// Purchase codes inside a longer text: "Purchase code: 1111…", a whole e-mail pasted into the checker. The
// marketplace's codes are UUIDs, so a UUID-shaped run of characters (8-4-4-4-12 hex digits, any letter case)
// standing apart from letters and digits is a code. Pure: the checker runs it in the browser on what is pasted.
import { canonicalUuid } from "./normalise";
import { findSlip, type PurchaseCodeSlip } from "./slips";

const UUID_IN_TEXT = /(?<![0-9a-z-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-z-])/gi;

/** The distinct UUID-shaped codes in `text`, in the order they first appear, in lower case. */
export function findPurchaseCodes(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(UUID_IN_TEXT), (match) => match[0].toLowerCase()))];
}

/**
 * What to check of a pasted or submitted text that is more than a code: the one code it holds (`found`), or the
 * codes to choose between (`choose`); null when the text is a code on its own, or holds none, and is checked as it is.
 */
export function codeInText(text: string): { found: string } | { choose: string[] } | null {
  const codes = findPurchaseCodes(text);
  if (codes.length === 0) return null;
  if (codes.length > 1) return { choose: codes };
  // The code alone (in any case, or wrapped in braces or quotes): the normaliser reads it, and says so.
  const rest = text.replace(UUID_IN_TEXT, "").replace(/[\s{}"'`<>()[\]]|urn:uuid:/gi, "");
  return rest === "" ? null : { found: codes[0]! };
}

// ---------------------------------------------------------------------------------------------------------
// A helpdesk ticket's codes: codes as they are, and almost-codes (one slip from a code's shape), in a whole thread.

/** A code found in a ticket: as it is, or an almost-code with its slip (and its mend, when certain). */
export type TicketCode = { kind: "code"; code: string } | { kind: "almost"; text: string; slip: PurchaseCodeSlip };

/** Dashes a mail client or a word processor puts for a hyphen, and the invisible characters it slips in. */
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
const INVISIBLE = /[\p{Cf}]/gu;
/** A run that may hold a code: letters and digits in groups joined by a hyphen or one or two spaces. */
const WORD = /[0-9A-Za-z]+/g;
/** The length of a text that is one slip from a code: 31–33 without hyphens, 35–37 with. */
const ALMOST_LENGTH = { min: 31, max: 37 } as const;
/** Words in a run that can be one code: five groups, one split or joined by a slip either way. */
const MAX_WORDS = 6;

/**
 * Every distinct code in a ticket's text (subject, messages, quoted replies, signatures), in the order they first
 * appear: UUID-shaped codes in any case, and almost-codes — a letter O for 0, spaces for hyphens, one character
 * too many or missing — named by their slip. The text is read as a mail client leaves it: compatibility forms
 * (full-width digits, no-break spaces) folded, invisible characters dropped and typographic dashes read as hyphens.
 */
export function findTicketCodes(text: string): TicketCode[] {
  const clean = text.normalize("NFKC").replace(INVISIBLE, "").replace(DASHES, "-");
  const found: Array<{ at: number; code: TicketCode }> = [];
  // Codes as they are; their places are blanked so that no almost-code is read across one.
  let rest = clean;
  for (const match of clean.matchAll(UUID_IN_TEXT)) {
    found.push({ at: match.index, code: { kind: "code", code: match[0].toLowerCase() } });
    rest = rest.slice(0, match.index) + " ".repeat(match[0].length) + rest.slice(match.index + match[0].length);
  }
  const words = Array.from(rest.matchAll(WORD), (match) => ({ at: match.index, end: match.index + match[0].length }));
  for (let first = 0; first < words.length; first += 1) {
    for (let last = first; last < Math.min(words.length, first + MAX_WORDS); last += 1) {
      const gap = last > first ? rest.slice(words[last - 1]!.end, words[last]!.at) : "";
      if (last > first && !/^(?:-| {1,2})$/.test(gap)) break;
      const candidate = rest.slice(words[first]!.at, words[last]!.end);
      if (candidate.length > ALMOST_LENGTH.max) break;
      if (candidate.length < ALMOST_LENGTH.min || !hasBoundaries(rest, words[first]!.at, words[last]!.end)) continue;
      // 32 hex digits without hyphens: a code, as the checker reads one.
      const bare = canonicalUuid(candidate);
      if (bare !== null) {
        found.push({ at: words[first]!.at, code: { kind: "code", code: bare } });
        break;
      }
      const slip = findSlip(candidate);
      if (slip === null) continue;
      found.push({ at: words[first]!.at, code: { kind: "almost", text: candidate, slip } });
      first = last; // the words are taken: the next run starts after them
      break;
    }
  }
  found.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  return found
    .map(({ code }) => code)
    .filter((code) => {
      const key = code.kind === "code" ? code.code : (code.slip.code ?? `almost:${code.text}`);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** A run stands apart: no hyphen joins it to a further word (it would be part of something longer). */
function hasBoundaries(text: string, start: number, end: number): boolean {
  return text[start - 1] !== "-" && text[end] !== "-";
}
