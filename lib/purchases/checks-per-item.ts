// The checks of a period per item (the purchases page's table): what a seller reads to see which items bring the
// most support requests, counted from the purchase history (./history.ts) without asking the item service.
import "server-only";

import type { Db } from "@/lib/db";

import { supportExpiredCount } from "./history";

/** One item's checks in a period: what a seller reads to see which items bring the most support requests. */
export interface ItemCheckCounts {
  item_id: number;
  item_name: string | null;
  /** Valid, support active or none. */
  valid: number;
  /** Valid, but the purchase's support had ended when it was checked. */
  support_expired: number;
  /**
   * Invalid checks of codes that were valid for this item in the same period, and revoked checks of its codes (a
   * code seen valid before, refused now: a refund, a reversed sale).
   */
  invalid: number;
}

export interface ChecksPerItem {
  since: string;
  items: ItemCheckCounts[];
  /** Invalid and failed checks that name no item: the item API names an item only for a valid code. */
  unattributed: { invalid: number; failed: number };
}

/** The days the per-item view looks back. */
export const CHECKS_PER_ITEM_DAYS = 30;

/**
 * The checks of the last `days` per item, most checked first (at most `limit` items). Three grouped queries over
 * the checked_at range (index purchase_checks_at) and the code hash (purchase_checks_hash_at); see
 * docs/purchase-codes.md for how long they take over 100,000 checks.
 */
export async function checksPerItem(
  db: Db,
  { days = CHECKS_PER_ITEM_DAYS, now = new Date(), limit = 50 }: { days?: number; now?: Date; limit?: number } = {},
): Promise<ChecksPerItem> {
  const since = new Date(now.getTime() - days * 86_400_000).toISOString();
  const inPeriod = db.selectFrom("purchase_checks").where("checked_at", ">=", since);
  const [byItem, invalidByItem, totals] = await Promise.all([
    inPeriod
      .where("item_id", "is not", null)
      .select((eb) => [
        "item_id",
        eb.fn.max("item_name").as("item_name"),
        supportExpiredCount(eb).as("support_expired"),
        eb.fn.sum<number>(eb.case().when("outcome", "=", "valid").then(1).else(0).end()).as("all_valid"),
        // A revoked check keeps the item it was bought for: invalid for that item, as a refunded code is.
        eb.fn.sum<number>(eb.case().when("outcome", "=", "revoked").then(1).else(0).end()).as("revoked"),
      ])
      .groupBy("item_id")
      .execute(),
    inPeriod
      .where("outcome", "=", "invalid")
      .innerJoin(
        (eb) =>
          eb
            .selectFrom("purchase_checks")
            .where("checked_at", ">=", since)
            .where("item_id", "is not", null)
            .select(["code_hash as known_hash", "item_id as known_item"])
            .distinct()
            .as("known"),
        (join) => join.onRef("known.known_hash", "=", "purchase_checks.code_hash"),
      )
      .select((eb) => ["known.known_item", eb.fn.countAll().as("n")])
      .groupBy("known.known_item")
      .execute(),
    inPeriod
      .where("outcome", "in", ["invalid", "failed"])
      .select((eb) => ["outcome", eb.fn.countAll().as("n")])
      .groupBy("outcome")
      .execute(),
  ]);
  const invalid = new Map(invalidByItem.map((row) => [Number(row.known_item), Number(row.n)]));
  const items = byItem.map((row) => {
    const expired = Number(row.support_expired ?? 0);
    return {
      item_id: Number(row.item_id),
      item_name: row.item_name,
      valid: Number(row.all_valid ?? 0) - expired,
      support_expired: expired,
      invalid: (invalid.get(Number(row.item_id)) ?? 0) + Number(row.revoked ?? 0),
    };
  });
  items.sort(
    (a, b) =>
      b.valid + b.support_expired + b.invalid - (a.valid + a.support_expired + a.invalid) || a.item_id - b.item_id,
  );
  const attributed = [...invalid.values()].reduce((sum, n) => sum + n, 0);
  const count = (outcome: string) => Number(totals.find((row) => row.outcome === outcome)?.n ?? 0);
  return {
    since,
    items: items.slice(0, limit),
    unattributed: { invalid: Math.max(0, count("invalid") - attributed), failed: count("failed") },
  };
}
