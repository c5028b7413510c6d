// Who must have a second factor (the admin's policy, one row of sign_in_settings), and whether a person meets it.
// Those who enrolled a factor always use it, whatever the policy; the break-glass admin too.
import "server-only";

import type { Db } from "@/lib/db";
import { isOneOf, SECOND_FACTOR_POLICIES, type Role, type SecondFactorPolicy } from "@/lib/contract/values";

const POLICY_ID = "policy";

export async function readSecondFactorPolicy(db: Db): Promise<SecondFactorPolicy> {
  const row = await db
    .selectFrom("sign_in_settings")
    .select("second_factor_policy")
    .where("id", "=", POLICY_ID)
    .executeTakeFirst();
  return row && isOneOf(SECOND_FACTOR_POLICIES, row.second_factor_policy) ? row.second_factor_policy : "off";
}

export async function writeSecondFactorPolicy(
  db: Db,
  policy: SecondFactorPolicy,
  by: string | null,
  now: Date = new Date(),
): Promise<void> {
  const values = { second_factor_policy: policy, updated_at: now.toISOString(), updated_by: by };
  await db
    .insertInto("sign_in_settings")
    .values({ id: POLICY_ID, ...values })
    .onConflict((c) => c.column("id").doUpdateSet(values))
    .execute();
}

/** Whether the policy asks this role for a second factor. */
export function policyCovers(policy: SecondFactorPolicy, role: Role): boolean {
  return policy === "everyone" || (policy === "admins" && role === "admin");
}

/** The policy with who set it last and when (both null until an admin sets it). */
export async function readSignInPolicy(
  db: Db,
): Promise<{ policy: SecondFactorPolicy; updatedAt: string | null; updatedBy: string | null }> {
  const row = await db
    .selectFrom("sign_in_settings")
    .select(["second_factor_policy", "updated_at", "updated_by"])
    .where("id", "=", POLICY_ID)
    .executeTakeFirst();
  return {
    policy: row && isOneOf(SECOND_FACTOR_POLICIES, row.second_factor_policy) ? row.second_factor_policy : "off",
    updatedAt: row?.updated_at ?? null,
    updatedBy: row?.updated_by ?? null,
  };
}
