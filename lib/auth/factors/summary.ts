// What a person has enrolled: the counts his security page shows and the sign-in's second step asks from.
import "server-only";

import type { Db } from "@/lib/db";
import type { FactorSummary } from "@/lib/contract/factors";

export async function factorSummary(db: Db, userId: string): Promise<FactorSummary> {
  const [passkeys, totp, recovery] = await Promise.all([
    db
      .selectFrom("passkeys")
      .select((e) => e.fn.countAll<number | string>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirst(),
    db.selectFrom("totp_factors").select("confirmed_at").where("user_id", "=", userId).executeTakeFirst(),
    db
      .selectFrom("recovery_codes")
      .select((e) => e.fn.countAll<number | string>().as("n"))
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .executeTakeFirst(),
  ]);
  return {
    passkeys: Number(passkeys?.n ?? 0),
    totp: Boolean(totp?.confirmed_at),
    recovery_codes_left: Number(recovery?.n ?? 0),
  };
}
