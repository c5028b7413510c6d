// Each item's licence policy: whether the licence API answers for it, the activations each licence type allows,
// the domains that never count, and whether a refunded purchase releases its activations. Off until an admin
// saves one; read on every licence call (one row by its key).
import "server-only";

import {
  DEFAULT_LICENCE_POLICY,
  LicencePolicyBodySchema,
  type LicencePolicy,
  type LicencePolicyBody,
} from "@/lib/contract/licences";
import type { Db } from "@/lib/db";
import type { LicencePoliciesTable } from "@/lib/db/schema";

function policyOf(row: LicencePoliciesTable): LicencePolicy {
  // Stored through the same schema it was saved with; a row that no longer reads (edited by hand) is the defaults.
  const parsed = LicencePolicyBodySchema.safeParse({
    enabled: row.enabled === 1,
    limits: JSON.parse(row.limits) as unknown,
    never_count: JSON.parse(row.never_count) as unknown,
    revoked_deactivates: row.revoked_deactivates === 1,
  });
  const body = parsed.success ? parsed.data : { ...DEFAULT_LICENCE_POLICY, enabled: false };
  return { item_id: row.item_id, ...body, updated_at: row.updated_at, updated_by: row.updated_by };
}

const defaults = (itemId: number): LicencePolicy => ({
  item_id: itemId,
  ...DEFAULT_LICENCE_POLICY,
  never_count: [...DEFAULT_LICENCE_POLICY.never_count],
  updated_at: null,
  updated_by: null,
});

export async function licencePolicy(db: Db, itemId: number): Promise<LicencePolicy> {
  const row = await db.selectFrom("licence_policies").selectAll().where("item_id", "=", itemId).executeTakeFirst();
  return row ? policyOf(row) : defaults(itemId);
}

/** Every saved policy, by item id. */
export async function licencePolicies(db: Db): Promise<LicencePolicy[]> {
  const rows = await db.selectFrom("licence_policies").selectAll().orderBy("item_id").execute();
  return rows.map(policyOf);
}

export async function saveLicencePolicy(
  db: Db,
  itemId: number,
  body: LicencePolicyBody,
  by: string,
): Promise<LicencePolicy> {
  const policy = LicencePolicyBodySchema.parse(body);
  const values = {
    enabled: policy.enabled ? 1 : 0,
    limits: JSON.stringify(policy.limits),
    never_count: JSON.stringify([...new Set(policy.never_count)]),
    revoked_deactivates: policy.revoked_deactivates ? 1 : 0,
    updated_at: new Date().toISOString(),
    updated_by: by,
  };
  await db
    .insertInto("licence_policies")
    .values({ item_id: itemId, ...values })
    .onConflict((conflict) => conflict.column("item_id").doUpdateSet(values))
    .execute();
  return licencePolicy(db, itemId);
}

/** The activations a licence type allows: "Extended License" → extended, anything else → regular. */
export function activationsAllowed(policy: LicencePolicy, licenceType: string): number {
  return /extended/i.test(licenceType) ? policy.limits.extended : policy.limits.regular;
}
