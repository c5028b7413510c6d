// What admins set of the purchase lifecycle and support people list (lib/purchases/lifecycle-admin.ts), on SQLite
// and PostgreSQL: settings saved whole, the seals of codes whose item is no longer covered forgotten at once (every
// one when the sweep is off); renewal links set and removed; the settings page's counts; the purchases whose support
// ends within N days, soonest first, filtered by item and paged, with their item's renewal link.
import { describe, expect, it } from "vitest";

import { DEFAULT_LIFECYCLE_SETTINGS, type PurchaseLifecycleSettings } from "@/lib/contract/purchase-lifecycle";
import type { Db } from "@/lib/db";
import { lifecycleSettings } from "@/lib/purchases/lifecycle";
import {
  lifecycleState,
  renewalLinks,
  saveLifecycleSettings,
  setRenewalUrl,
  supportExpiring,
} from "@/lib/purchases/lifecycle-admin";

import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const NOW = new Date("2026-11-28T12:00:00.000Z");
const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(NOW.getTime() + days * DAY_MS + 60_000).toISOString();
const BUDGET = { itemsCallsPerMinute: 60, maxShare: 0.2, sweepCallsPerMinute: 12 };
const enabled = (items: "all" | number[]): PurchaseLifecycleSettings => ({
  ...DEFAULT_LIFECYCLE_SETTINGS,
  sweep: { enabled: true, items, every_days: 7 },
});

async function known(
  db: Db,
  n: number,
  fields: { itemId: number; supportedUntil?: string | null; status?: string; verifiedAt?: string },
) {
  const at = fields.verifiedAt ?? "2026-10-01T00:00:00.000Z";
  await db
    .insertInto("known_purchases")
    .values({
      code_hash: `hash-${n}`,
      code_last4: `c00${n}`.slice(-4),
      item_id: fields.itemId,
      item_name: `Item ${fields.itemId}`,
      license_type: "Regular License",
      supported_until: fields.supportedUntil ?? null,
      sold_at: null,
      first_valid_at: at,
      last_valid_at: at,
      status: fields.status ?? "valid",
      verified_at: at,
      revoked_at: null,
      code_sealed: `sealed-${n}`,
      support_notice_for: null,
      shared_flagged_at: null,
    })
    .execute();
}

const sealedCount = async (db: Db) =>
  (await db.selectFrom("known_purchases").select("code_hash").where("code_sealed", "is not", null).execute()).length;

describe.each<Backend>(bothBackends())("on $name", (backend) => {
  const store = useStore(backend);

  it("saves settings whole and forgets the codes of the items they no longer cover", async () => {
    const db = store().db;
    for (const [n, itemId] of [1, 1, 2, 3].entries()) await known(db, n, { itemId: itemId! });
    expect(await saveLifecycleSettings(db, enabled("all"), "admin@x.test", NOW)).toBe(0);
    expect(await lifecycleSettings(db)).toEqual(enabled("all"));
    expect(await saveLifecycleSettings(db, enabled([1, 3]), "admin@x.test", NOW)).toBe(1);
    expect(await sealedCount(db)).toBe(3);
    expect(
      await saveLifecycleSettings(
        db,
        { ...enabled("all"), sweep: { ...enabled("all").sweep, enabled: false } },
        null,
        NOW,
      ),
    ).toBe(3);
    expect(await sealedCount(db)).toBe(0);
    const state = await lifecycleState(db, BUDGET, NOW);
    expect(state).toMatchObject({
      updated_at: NOW.toISOString(),
      updated_by: null,
      enrolled: 0,
      due: 0,
      waiting_rechecks: 0,
      budget: { items_calls_per_minute: 60, max_share: 0.2, sweep_calls_per_minute: 12 },
    });
  });

  it("counts the codes enrolled and due", async () => {
    const db = store().db;
    await known(db, 1, { itemId: 1 });
    await known(db, 2, { itemId: 1, verifiedAt: new Date(NOW.getTime() - DAY_MS).toISOString() });
    await known(db, 3, { itemId: 2, status: "revoked" });
    await saveLifecycleSettings(db, enabled("all"), "admin@x.test", NOW);
    expect(await lifecycleState(db, BUDGET, NOW)).toMatchObject({ enrolled: 2, due: 1, updated_by: "admin@x.test" });
  });

  it("sets, changes and removes an item's renewal link", async () => {
    const db = store().db;
    await setRenewalUrl(db, 7, "https://example.com/renew", "admin@x.test");
    await setRenewalUrl(db, 7, "https://example.com/renew-2", "admin@x.test");
    await setRenewalUrl(db, 3, "https://example.com/three", null);
    expect((await renewalLinks(db)).map(({ item_id, renewal_url }) => [item_id, renewal_url])).toEqual([
      [3, "https://example.com/three"],
      [7, "https://example.com/renew-2"],
    ]);
    await setRenewalUrl(db, 3, null, null);
    expect((await renewalLinks(db)).map((link) => link.item_id)).toEqual([7]);
  });

  it("lists the valid purchases whose support ends within N days, soonest first", async () => {
    const db = store().db;
    await known(db, 1, { itemId: 1, supportedUntil: inDays(10) });
    await known(db, 2, { itemId: 2, supportedUntil: inDays(2) });
    await known(db, 3, { itemId: 1, supportedUntil: inDays(30) }); // beyond the default 14
    await known(db, 4, { itemId: 1, supportedUntil: inDays(-1) }); // ended
    await known(db, 5, { itemId: 1, supportedUntil: inDays(1), status: "revoked" });
    await known(db, 6, { itemId: 1 }); // no support
    await setRenewalUrl(db, 2, "https://example.com/renew-2", null);
    const page = await supportExpiring(db, {}, NOW);
    expect(page.meta).toEqual({ page: 1, per_page: 25, total: 2, last_page: 1, days: 14 });
    expect(page.data).toEqual([
      {
        code_last4: "c002",
        item: { id: 2, name: "Item 2" },
        license_type: "Regular License",
        supported_until: inDays(2),
        days_left: 2,
        last_checked_at: "2026-10-01T00:00:00.000Z",
        renewal_url: "https://example.com/renew-2",
      },
      expect.objectContaining({ code_last4: "c001", days_left: 10, renewal_url: null }),
    ]);
    expect((await supportExpiring(db, { days: 60, item_id: 1 }, NOW)).data.map((row) => row.code_last4)).toEqual([
      "c001",
      "c003",
    ]);
    const second = await supportExpiring(db, { days: 60, per_page: 10, page: 2 }, NOW);
    expect(second).toMatchObject({ data: [], meta: { total: 3, page: 2 } });
    await saveLifecycleSettings(db, { ...DEFAULT_LIFECYCLE_SETTINGS, support_expiring_days: 5 }, null, NOW);
    expect((await supportExpiring(db, {}, NOW)).meta).toMatchObject({ days: 5, total: 1 });
  });
});
