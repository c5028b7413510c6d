// What of a purchase code Gatehouse may show: the audit log, the history (code_last4) and bulk jobs keep a code
// only as a keyed hash plus, when the code is long enough for them to say nothing, its last 4 characters. No zod:
// the history page shows the same for a code searched for. And whether a valid purchase's support has expired.
import type { SupportStateName } from "./values";

/**
 * A code shorter than this keeps no readable characters at all: 4 of a 36-character code (a UUID's 122 random
 * bits less 16) say nothing, but 4 of an 8-character code are half of it.
 */
export const PURCHASE_CODE_LAST4_MIN_LENGTH = 16;

/** The characters of a code the audit log, the history and bulk jobs may show: its last 4, or none (""). */
export function purchaseCodeLast4(code: string): string {
  const chars = Array.from(code.trim());
  return chars.length >= PURCHASE_CODE_LAST4_MIN_LENGTH ? chars.slice(-4).join("") : "";
}

/** A valid purchase's support at `now`: null for a check that found no purchase (invalid, failed, pending). */
export function supportOf(
  valid: boolean,
  supportedUntil: string | null | undefined,
  now = Date.now(),
): SupportStateName | null {
  if (!valid) return null;
  const until = supportedUntil ? Date.parse(supportedUntil) : Number.NaN;
  if (Number.isNaN(until)) return "none";
  return until > now ? "active" : "expired";
}
