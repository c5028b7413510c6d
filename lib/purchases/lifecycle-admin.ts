// What admins set for a purchase over its life, and what support people list of it: the lifecycle's settings
// (saved whole; saving settings that un-cover items forgets those codes' seals at once, since codes are kept sealed
// at rest only while the sweep covers them), each item's renewal link, the settings page's state (codes enrolled,
// due, waiting since an outage; the budget), and the purchases whose support ends within N days.
import "server-only";

import { pageMeta } from "@/lib/contract/common";
import type { PurchaseLifecycleSettings } from "@/lib/contract/purchase-lifecycle";
import type {
  PurchaseLifecycleState,
  RenewalLink,
  SupportExpiringPage,
  SupportExpiringQuery,
} from "@/lib/contract/purchase-sweep";
import { DEFAULT_PER_PAGE } from "@/lib/contract/values";
import type { Db } from "@/lib/db";

import { lifecycleSettings } from "./lifecycle";
import { dueCount } from "./sweep";

const SETTINGS_NAME = "lifecycle";
const DAY_MS = 86_400_000;

export interface SweepBudget {
  itemsCallsPerMinute: number;
  maxShare: number;
  sweepCallsPerMinute: number;
}

/** The settings, when and by whom they were saved, what the sweep has to do, and every renewal link. */
export async function lifecycleState(db: Db, budget: SweepBudget, now = new Date()): Promise<PurchaseLifecycleState> {
  const [settings, row, enrolled, waiting, links] = await Promise.all([
    lifecycleSettings(db),
    db
      .selectFrom("purchase_settings")
      .select(["updated_at", "updated_by"])
      .where("name", "=", SETTINGS_NAME)
      .executeTakeFirst(),
    db
      .selectFrom("known_purchases")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("status", "=", "valid")
      .where("code_sealed", "is not", null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("purchase_rechecks")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
    renewalLinks(db),
  ]);
  const due = await dueCount(db, settings, now);
  return {
    settings,
    updated_at: row?.updated_at ?? null,
    updated_by: row?.updated_by ?? null,
    enrolled: Number(enrolled.n),
    due,
    waiting_rechecks: Number(waiting.n),
    budget: {
      items_calls_per_minute: budget.itemsCallsPerMinute,
      max_share: budget.maxShare,
      sweep_calls_per_minute: budget.sweepCallsPerMinute,
    },
    renewal_links: links,
  };
}

/**
 * Saves the settings whole, and forgets (code_sealed = NULL) every code whose item they no longer cover: all of
 * them when the sweep is off, those of the items left out otherwise. A code newly covered is enrolled at its next
 * check (until then only its hash is known). Returns the codes forgotten.
 */
export async function saveLifecycleSettings(
  db: Db,
  settings: PurchaseLifecycleSettings,
  by: string | null,
  now = new Date(),
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = { value: JSON.stringify(settings), updated_at: now.toISOString(), updated_by: by };
    await trx
      .insertInto("purchase_settings")
      .values({ name: SETTINGS_NAME, ...row })
      .onConflict((conflict) => conflict.column("name").doUpdateSet(row))
      .execute();
    let forget = trx.updateTable("known_purchases").set({ code_sealed: null }).where("code_sealed", "is not", null);
    const { enabled, items } = settings.sweep;
    if (enabled && items === "all") return 0;
    if (enabled && items !== "all") forget = forget.where("item_id", "not in", items);
    const forgotten = await forget.executeTakeFirst();
    return Number(forgotten.numUpdatedRows);
  });
}

export async function renewalLinks(db: Db): Promise<RenewalLink[]> {
  const rows = await db
    .selectFrom("item_settings")
    .select(["item_id", "renewal_url", "updated_at", "updated_by"])
    .where("renewal_url", "is not", null)
    .orderBy("item_id")
    .execute();
  return rows.map((row) => ({ ...row, item_id: Number(row.item_id), renewal_url: row.renewal_url! }));
}

/** Sets the item's renewal link, or removes it (null). */
export async function setRenewalUrl(db: Db, itemId: number, url: string | null, by: string | null): Promise<void> {
  const row = { renewal_url: url, updated_at: new Date().toISOString(), updated_by: by };
  await db
    .insertInto("item_settings")
    .values({ item_id: itemId, ...row })
    .onConflict((conflict) => conflict.column("item_id").doUpdateSet(row))
    .execute();
}

/**
 * The valid purchases whose support ends within `days` (the admin's support_expiring_days unless asked), soonest
 * first; by their last 4 characters, never whole.
 */
export async function supportExpiring(
  db: Db,
  query: SupportExpiringQuery,
  now = new Date(),
): Promise<SupportExpiringPage> {
  const days = query.days ?? (await lifecycleSettings(db)).support_expiring_days;
  const perPage = query.per_page ?? DEFAULT_PER_PAGE.supportExpiring;
  const pageNumber = query.page ?? 1;
  let base = db
    .selectFrom("known_purchases")
    .where("status", "=", "valid")
    .where("supported_until", ">", now.toISOString())
    .where("supported_until", "<=", new Date(now.getTime() + days * DAY_MS).toISOString());
  if (query.item_id !== undefined) base = base.where("known_purchases.item_id", "=", query.item_id);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    base
      .leftJoin("item_settings", "item_settings.item_id", "known_purchases.item_id")
      .select([
        "known_purchases.code_last4",
        "known_purchases.item_id",
        "known_purchases.item_name",
        "known_purchases.license_type",
        "known_purchases.supported_until",
        "known_purchases.verified_at",
        "item_settings.renewal_url",
      ])
      .orderBy("known_purchases.supported_until")
      .orderBy("known_purchases.code_hash")
      .limit(perPage)
      .offset((pageNumber - 1) * perPage)
      .execute(),
  ]);
  return {
    data: rows.map((row) => ({
      code_last4: row.code_last4,
      item: { id: Number(row.item_id), name: row.item_name },
      license_type: row.license_type,
      supported_until: row.supported_until!,
      days_left: Math.floor((Date.parse(row.supported_until!) - now.getTime()) / DAY_MS),
      last_checked_at: row.verified_at,
      renewal_url: row.renewal_url ?? null,
    })),
    meta: { ...pageMeta(pageNumber, perPage, Number(count.n)), days },
  };
}
