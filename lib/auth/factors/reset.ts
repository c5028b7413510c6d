// Every second factor of some people removed at once: their passkeys, authenticator app, recovery codes and WebAuthn
// challenges in flight. The operator's reset (`npm run users -- reset-factors`, the day someone loses his phone)
// and the deletion of an account both go through here, so that no factor row outlives its person.
import "server-only";

import type { Db } from "@/lib/db";

/** What was removed, for the operator's message and the audit row. */
export interface FactorsRemoved {
  passkeys: number;
  totp: number;
  recoveryCodes: number;
}

/** Deletes the factor rows of `userIds` (inside the caller's transaction when `db` is one). */
export async function deleteFactors(db: Db, userIds: readonly string[]): Promise<FactorsRemoved> {
  if (userIds.length === 0) return { passkeys: 0, totp: 0, recoveryCodes: 0 };
  const ids = [...userIds];
  const passkeys = await db.deleteFrom("passkeys").where("user_id", "in", ids).executeTakeFirst();
  const totp = await db.deleteFrom("totp_factors").where("user_id", "in", ids).executeTakeFirst();
  const codes = await db.deleteFrom("recovery_codes").where("user_id", "in", ids).executeTakeFirst();
  await db.deleteFrom("auth_challenges").where("user_id", "in", ids).execute();
  return {
    passkeys: Number(passkeys.numDeletedRows),
    totp: Number(totp.numDeletedRows),
    recoveryCodes: Number(codes.numDeletedRows),
  };
}
