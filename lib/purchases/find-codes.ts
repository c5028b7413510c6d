// Purchase codes inside a longer text: "Purchase code: 1111…", a whole e-mail pasted into the checker. The
// marketplace's codes are UUIDs, so a UUID-shaped run of characters (8-4-4-4-12 hex digits, any letter case)
// standing apart from letters and digits is a code. Pure: the checker runs it in the browser on what is pasted.

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
