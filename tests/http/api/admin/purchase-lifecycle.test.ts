// The purchase lifecycle's sweep over real HTTP (next start ↔ sandbox, the portal's own job system and store, on
// SQLite and PostgreSQL): an admin enables the sweep, codes checked valid are enrolled (sealed), their verdicts aged
// in the store, a sale reversed at the sandbox; "Sweep now" finds the reversal (history row revoked, source sweep;
// purchase.revoked once) and re-verifies the rest, no two calls closer than the budget allows (counted at the
// sandbox). Turning the sweep off forgets every seal. A code answered from its last verdict while the item API
// failed is re-checked by the next sweep once it answers. Support moved into the notice period is listed and
// announced once. The settings' and renewal links' validation and permissions.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";
import { FIXED_PURCHASE_CODES as CODES } from "@/lib/sandbox";
import { seedSellers } from "@/lib/sandbox/seed";

import type { SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";
import { until } from "@/tests/support/until";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";
import { busiestWindow } from "@/tests/support/windows";

const VALIDATION_PATH = "/market/api/purchases/validation";
const DAY_MS = 86_400_000;
/** ITEMS_API_CALLS_PER_MINUTE × PURCHASE_SWEEP_MAX_SHARE: 60 a minute, one call a second at most. */
const BUDGET_WINDOW_MS = 1_000;
/** The sandbox stamps a request when it arrives, a few ms after its slot was taken: the stamps may drift this much. */
const ARRIVAL_JITTER_MS = 60;

describe.each(bothServerStores())("on $name", (serverStore) => {
  const {
    sandbox,
    gateway,
    clients: { admin, support, viewer },
  } = setUpGateway({
    store: serverStore,
    signIn: ["admin", "support", "viewer"],
    env: {
      ITEMS_API_CALLS_PER_MINUTE: "120",
      PURCHASE_SWEEP_MAX_SHARE: "0.5",
      PURCHASE_RATE_LIMIT_PER_USER: "10000",
      PURCHASE_RATE_LIMIT_PER_IP: "10000",
      WEBHOOK_ALLOW_PRIVATE: "1",
    },
  });

  let store: Store;
  let receiver: WebhookReceiver;
  let endpointId = "";

  const json = (method: string, body: unknown): RequestInit => ({
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const validate = (client: SignedInClient, code: string) =>
    client.request("/api/purchases/validate", json("POST", { purchase_code: code }));
  const saveSettings = (client: SignedInClient, settings: unknown) =>
    client.request("/api/admin/purchase-lifecycle", json("PUT", settings));
  const sweepNow = async () => {
    const res = await admin.request("/api/admin/purchase-lifecycle/sweep", { method: "POST" });
    expect(res.status, res.text).toBe(202);
  };
  const SETTINGS = {
    sweep: { enabled: true, items: "all", every_days: 7 },
    support_expiring_days: 14,
    shared: { window_days: 30, tickets: 3, tokens: 3, addresses: 5 },
  };

  /** The events stored for the test's endpoint, oldest first. */
  async function events(): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
    const res = await admin.request(`/api/admin/webhooks/${endpointId}/deliveries`);
    expect(res.status, res.text).toBe(200);
    return (res.json.data as Array<{ payload: string }>)
      .map((delivery) => JSON.parse(delivery.payload) as { type: string; data: Record<string, unknown> })
      .reverse();
  }

  const last4 = (code: string) => code.slice(-4);

  /** A few more codes the sandbox's main seller sold (its seed is fixed). */
  const soldCodes = [...seedSellers().main.purchases.keys()].filter(
    (code) => !(Object.values(CODES) as string[]).includes(code),
  );

  beforeAll(async () => {
    store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
    receiver = await startWebhookReceiver();
    const created = await admin.request(
      "/api/admin/webhooks",
      json("POST", { url: receiver.url, events: ["purchase.revoked", "purchase.support_expiring"] }),
    );
    expect(created.status, created.text).toBe(201);
    endpointId = created.json.data.id;
    receiver.secrets = [created.json.data.secret];
  });
  afterAll(async () => {
    await store?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    await sandbox.clearFaults();
  });

  describe("the settings", () => {
    it("answers the defaults, then saves settings whole and audits it", async () => {
      const before = await admin.request("/api/admin/purchase-lifecycle");
      expect(before.status, before.text).toBe(200);
      expect(before.json.data.settings.sweep.enabled).toBe(false);
      expect(before.json.data.budget).toEqual({
        items_calls_per_minute: 120,
        max_share: 0.5,
        sweep_calls_per_minute: 60,
      });
      const saved = await saveSettings(admin, { ...SETTINGS, sweep: { ...SETTINGS.sweep, enabled: false } });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.json.data.updated_by).toBe("admin@gatehouse.test");
      const audit = await admin.request("/api/admin/audit?action=purchase.lifecycle_update");
      expect(audit.json.data[0]).toMatchObject({ action: "purchase.lifecycle_update", outcome: "success" });
    });

    it("refuses bad settings with a sentence per field", async () => {
      const res = await saveSettings(admin, {
        ...SETTINGS,
        sweep: { enabled: "yes", items: [], every_days: 0 },
        support_expiring_days: 400,
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe("invalid_input");
      expect(res.json.error.fields).toMatchObject({
        "sweep.enabled": "sweep.enabled must be true or false",
        "sweep.every_days": "sweep.every_days must be at least 1 day",
        support_expiring_days: "support_expiring_days must be at most 365 days",
      });
      expect(res.json.error.fields["sweep.items"]).toBeDefined();
    });

    it("is for admins only", async () => {
      expect((await support.request("/api/admin/purchase-lifecycle")).status).toBe(403);
      expect((await saveSettings(support, SETTINGS)).status).toBe(403);
      expect((await support.request("/api/admin/purchase-lifecycle/sweep", { method: "POST" })).status).toBe(403);
      expect(
        (await support.request("/api/admin/purchase-lifecycle/items/100001", json("PUT", { renewal_url: null })))
          .status,
      ).toBe(403);
    });

    it("sets and removes an item's renewal link, https only", async () => {
      const url = "https://example.com/renew/aurora";
      const bad = await admin.request(
        "/api/admin/purchase-lifecycle/items/100001",
        json("PUT", { renewal_url: "http://example.com/renew" }),
      );
      expect(bad.status, bad.text).toBe(400);
      expect(bad.json.error.fields.renewal_url).toBe("renewal_url must be an https:// address");
      const notAnId = await admin.request("/api/admin/purchase-lifecycle/items/abc", json("PUT", { renewal_url: url }));
      expect(notAnId.status).toBe(400);
      const set = await admin.request("/api/admin/purchase-lifecycle/items/100002", json("PUT", { renewal_url: url }));
      expect(set.status, set.text).toBe(200);
      expect(set.json.data).toEqual({ item_id: 100002, renewal_url: url });
      const state = await admin.request("/api/admin/purchase-lifecycle");
      expect(state.json.data.renewal_links).toMatchObject([{ item_id: 100002, renewal_url: url }]);
      const removed = await admin.request(
        "/api/admin/purchase-lifecycle/items/100002",
        json("PUT", { renewal_url: null }),
      );
      expect(removed.status).toBe(200);
      expect((await admin.request("/api/admin/purchase-lifecycle")).json.data.renewal_links).toEqual([]);
    });
  });

  describe("the sweep", () => {
    const enrolled = [CODES.active, CODES.expired, CODES.none, ...soldCodes.slice(0, 3)];

    it("finds a reversed sale among the enrolled codes, re-verifies the rest, and keeps to its budget", async () => {
      expect((await saveSettings(admin, SETTINGS)).status).toBe(200);
      for (const code of enrolled) expect((await validate(support, code)).json.data.valid).toBe(true);
      const sealed = await store.db
        .selectFrom("known_purchases")
        .select(["code_last4", "code_sealed"])
        .where("status", "=", "valid")
        .execute();
      expect(sealed.filter((row) => row.code_sealed !== null).map((row) => row.code_last4)).toEqual(
        expect.arrayContaining(enrolled.map(last4)),
      );
      // A month ago, as far as the sweep can tell; the marketplace refunds one of them meanwhile.
      const monthAgo = new Date(Date.now() - 30 * DAY_MS).toISOString();
      await store.db.updateTable("known_purchases").set({ verified_at: monthAgo }).execute();
      await sandbox.setPurchase(CODES.active, { reversed: true });
      await sandbox.clearRequests();

      await sweepNow();
      // Each check settles the verdict, then records the check: the record is the last write, so wait for it.
      const done = await until(async () => {
        const recorded = await store.db
          .selectFrom("purchase_checks")
          .select("code_last4")
          .where("source", "=", "sweep")
          .execute();
        return recorded.length === enrolled.length;
      }, "every enrolled code re-checked and recorded");
      expect(done).toBe(true);
      const left = await store.db
        .selectFrom("known_purchases")
        .select("code_last4")
        .where("verified_at", "=", monthAgo)
        .execute();
      expect(left).toEqual([]);

      const revoked = await store.db
        .selectFrom("known_purchases")
        .selectAll()
        .where("code_last4", "=", last4(CODES.active))
        .executeTakeFirstOrThrow();
      expect(revoked).toMatchObject({ status: "revoked", code_sealed: null });
      const sweepRows = await store.db
        .selectFrom("purchase_checks")
        .select(["code_last4", "outcome", "user_email"])
        .where("source", "=", "sweep")
        .execute();
      expect(sweepRows).toContainEqual({ code_last4: last4(CODES.active), outcome: "revoked", user_email: null });
      expect(sweepRows.filter((row) => row.outcome === "valid")).toHaveLength(enrolled.length - 1);
      const history = await support.request("/api/purchases/history?outcome=revoked");
      expect(history.json.data[0]).toMatchObject({ code_last4: last4(CODES.active), source: "sweep" });

      const revokedEvents = await until(async () => {
        const found = (await events()).filter((event) => event.type === "purchase.revoked");
        return found.length > 0 && found;
      }, "purchase.revoked stored");
      expect(revokedEvents).toHaveLength(1);
      expect(revokedEvents[0]!.data).toMatchObject({ code_last4: last4(CODES.active) });

      // The budget, counted where the calls arrive: no window of its length holds more than one.
      const asked = (await sandbox.requests()).filter((request) => request.path === VALIDATION_PATH);
      expect(asked).toHaveLength(enrolled.length);
      const times = asked.map((request) => Date.parse(request.at));
      expect(busiestWindow(times, BUDGET_WINDOW_MS - ARRIVAL_JITTER_MS)).toBe(1);
      // A second sweep finds nothing due: no call.
      await sandbox.clearRequests();
      await sweepNow();
      const state = await admin.request("/api/admin/purchase-lifecycle");
      expect(state.json.data).toMatchObject({ enrolled: enrolled.length - 1, due: 0 });
    });

    it("forgets every seal when the sweep is turned off", async () => {
      const res = await saveSettings(admin, { ...SETTINGS, sweep: { ...SETTINGS.sweep, enabled: false } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.forgotten).toBe(enrolled.length - 1);
      expect(res.json.data.enrolled).toBe(0);
      const left = await store.db
        .selectFrom("known_purchases")
        .select("code_hash")
        .where("code_sealed", "is not", null)
        .execute();
      expect(left).toEqual([]);
    });

    it("re-checks a code answered from its last verdict once the item API answers again", async () => {
      const code = CODES.letters;
      expect((await validate(support, code)).json.data.valid).toBe(true);
      await sandbox.injectFault({ path: VALIDATION_PATH, kind: "status", status: 503 });
      const stale = await validate(support, code);
      expect(stale.status, stale.text).toBe(200);
      expect(stale.json.data).toMatchObject({ stale: true, valid: true });
      expect(await store.db.selectFrom("purchase_rechecks").select("code_hash").execute()).toHaveLength(1);

      // Still failing: the sweep asks, and leaves it waiting.
      await sandbox.clearRequests();
      await sweepNow();
      await until(
        async () => (await sandbox.requests()).some((request) => request.path === VALIDATION_PATH),
        "the sweep asked while the item API failed",
      );
      expect(await store.db.selectFrom("purchase_rechecks").select("code_hash").execute()).toHaveLength(1);
      await sandbox.clearFaults();
      await sweepNow();
      await until(
        async () => (await store.db.selectFrom("purchase_rechecks").select("code_hash").execute()).length === 0,
        "the waiting code re-checked",
      );
      const rechecked = await store.db
        .selectFrom("purchase_checks")
        .select(["outcome", "source"])
        .where("code_last4", "=", last4(code))
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      expect(rechecked).toEqual({ outcome: "valid", source: "sweep" });
    });
  });

  describe("support ending soon", () => {
    const inDays = (days: number) => new Date(Date.now() + days * DAY_MS + 3_600_000).toISOString();

    it("lists a purchase whose support moved into the notice period and announces it once", async () => {
      const [first, second] = soldCodes.slice(3, 5) as [string, string];
      await sandbox.setPurchase(first, { supported_until: inDays(5) });
      expect((await validate(support, first)).json.data.lifecycle.support_ends_in_days).toBe(5);
      await sweepNow();
      const notices = async () => (await events()).filter((event) => event.type === "purchase.support_expiring");
      const once = await until(async () => (await notices()).length === 1 && notices(), "the notice");
      expect(once[0]!.data).toMatchObject({
        code_last4: last4(first),
        days_left: 5,
        supported_until: expect.any(String),
      });

      const list = await support.request("/api/purchases/support-expiring");
      expect(list.status, list.text).toBe(200);
      expect(list.json.meta).toMatchObject({ days: 14, total: 1 });
      expect(list.json.data[0]).toMatchObject({ code_last4: last4(first), days_left: 5 });
      expect(JSON.stringify(list.json)).not.toContain(first);

      // The next sweep sends only what is new: the second purchase's notice, not the first's again.
      await sandbox.setPurchase(second, { supported_until: inDays(2) });
      await validate(support, second);
      await sweepNow();
      const both = await until(async () => (await notices()).length >= 2 && notices(), "the second notice");
      expect(both.map((event) => event.data.code_last4)).toEqual([last4(first), last4(second)]);
      const soonest = await support.request("/api/purchases/support-expiring?days=3");
      expect(soonest.json.data.map((row: { code_last4: string }) => row.code_last4)).toEqual([last4(second)]);
    });

    it("refuses a bad query with its fields, and people who may not check codes", async () => {
      const bad = await support.request("/api/purchases/support-expiring?days=0&item_id=abc&per_page=7");
      expect(bad.status, bad.text).toBe(400);
      expect(Object.keys(bad.json.error.fields).sort()).toEqual(["days", "item_id", "per_page"]);
      expect((await support.request("/api/purchases/support-expiring?days=366")).status).toBe(400);
      expect((await support.request("/api/purchases/support-expiring?sort=soonest")).status).toBe(400);
      expect((await viewer.request("/api/purchases/support-expiring")).status).toBe(403);
    });
  });
});
