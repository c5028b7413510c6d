// Recovery codes: ten single-use codes, shown once, kept hashed. Built by issue 36's recovery part; the signature
// below is what lib/auth/factors/proof.ts calls.
import "server-only";

import type { Db } from "@/lib/db";

/** Whether `code` (normalized: 10 lowercase letters and digits) is one of the person's unused codes; it is then used. */
export async function redeemRecoveryCode(
  db: Db,
  userId: string,
  code: string,
  now: Date = new Date(),
): Promise<boolean> {
  void db;
  void userId;
  void code;
  void now;
  return false;
}
