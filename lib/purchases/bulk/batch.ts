// A batch as the store keeps it: every code cleaned by the normaliser, duplicates merged, and one row per distinct
// code with the code sealed at rest (./code-seal.ts) — only its hash and last 4 characters are readable in the
// database.
import "server-only";

import { hashPurchaseCode } from "@/lib/auth/audit";
import { purchaseCodeLast4 } from "@/lib/contract/purchase-code";
import type { PurchaseCodeFormat } from "@/lib/contract/values";

import { normalisePurchaseCode } from "../normalise";
import { codeSealer } from "./code-seal";

/**
 * A refused code is kept (sealed) as sent, to show what was wrong with it — but never more of it than a real
 * code can have (100 characters): one kilobyte of junk per line must not cost a kilobyte of store per line.
 */
export const STORED_REFUSED_CODE_MAX = 100;

/** One distinct code of a batch, as cleaned by the normaliser (or refused by it, with the reason). */
export interface PreparedCode {
  idx: number;
  /** The cleaned code; the code as sent (trimmed) when the normaliser refused it. */
  code: string;
  occurrences: number;
  refused: boolean;
  reason: string | null;
  notes: string[];
}

/**
 * Cleans every code by `format` (PURCHASE_CODE_FORMAT) and merges duplicates (same cleaned code: two pasted forms
 * of one UUID are one code), keeping the order of first appearance.
 */
export function prepareBatch(
  rawCodes: readonly string[],
  format: PurchaseCodeFormat = "auto",
): { codes: PreparedCode[]; duplicates: number } {
  const byCode = new Map<string, PreparedCode>();
  for (const raw of rawCodes) {
    const result = normalisePurchaseCode(raw, format);
    const code = result.ok ? result.code : shortened(raw.trim());
    const seen = byCode.get(code);
    if (seen) {
      seen.occurrences += 1;
      continue;
    }
    byCode.set(code, {
      idx: byCode.size,
      code,
      occurrences: 1,
      refused: !result.ok,
      reason: result.ok ? null : result.reason,
      notes: result.ok ? result.notes : [],
    });
  }
  return { codes: [...byCode.values()], duplicates: rawCodes.length - byCode.size };
}

function shortened(text: string): string {
  const chars = Array.from(text);
  return chars.length <= STORED_REFUSED_CODE_MAX ? text : `${chars.slice(0, STORED_REFUSED_CODE_MAX).join("")}…`;
}

/** The rows of a new job's codes: pending, or invalid at once when the normaliser refused them. */
export function codeRows(jobId: string, codes: readonly PreparedCode[], hashKey: string, at: string) {
  return codes.map((code) => ({
    job_id: jobId,
    idx: code.idx,
    code_sealed: codeSealer.seal(code.code, hashKey),
    code_hash: hashPurchaseCode(code.code, hashKey),
    code_last4: purchaseCodeLast4(code.code),
    occurrences: code.occurrences,
    status: code.refused ? "invalid" : "pending",
    refused: code.refused ? 1 : 0,
    reason: code.reason,
    notes: code.notes.length > 0 ? JSON.stringify(code.notes) : null,
    item_id: null,
    item_name: null,
    license_type: null,
    supported_until: null,
    checked_at: code.refused ? at : null,
  }));
}
