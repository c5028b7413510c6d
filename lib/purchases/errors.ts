// The purchase checker's one refusal of a caller's input: a code the normaliser refuses (a look-alike, a dash, a
// control character), sent in `field`. It is the client's mistake — the API answers 400 with the reason in
// fields[field] (lib/api/errors.ts), with the slip and the corrected code in `suggestion` when the code is one slip
// from a purchase code's shape — and it costs no upstream call and no history row.
import { hasBrand } from "@/lib/brand";

import type { PurchaseCodeSlip } from "./slips";

const CODE_REFUSED: unique symbol = Symbol.for("gatehouse.PurchaseCodeRefused");

export class PurchaseCodeRefused extends Error {
  readonly [CODE_REFUSED] = true;

  constructor(
    /** The input's field that held the code: purchase_code, code. */
    readonly field: string,
    /** The normaliser's reason, naming the character and its position. */
    readonly reason: string,
    /** The slip the code is from a purchase code's shape (./slips.ts), when it is one. */
    readonly suggestion: PurchaseCodeSlip | null = null,
  ) {
    super(`${field}: ${reason}`);
    this.name = "PurchaseCodeRefused";
  }
}

/** A PurchaseCodeRefused of any copy of this module (lib/brand.ts). */
export function isPurchaseCodeRefused(error: unknown): error is PurchaseCodeRefused {
  return hasBrand(error, CODE_REFUSED);
}
