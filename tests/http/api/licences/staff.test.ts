// Licence activations, the staff's and admins' side, over real HTTP (next start ↔ sandbox, on SQLite and
// PostgreSQL): most activations are made in the gateway's own store with lib/licences' activate(), one by a copy
// through the public licence API (tested itself in ./public.test.ts); support searches a code's activations (never
// another code's, whatever case the copy sent it in), resets one (audited with the reason, licence.deactivated sent
// without the code, the copy's next validation not active), is told clearly that one already reset cannot be reset
// again, resets all of a code's; a viewer may not, a foreign Origin is refused. Admins read every item's policy with
// the public keys, save one, and are told per field what is wrong with a bad one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { hashPurchaseCode } from "@/lib/auth/audit";
import { parseDatabaseUrl } from "@/lib/config/store";
import { LICENCE_KEYS_PATH } from "@/lib/contract/licences";
import { openDb, type Store } from "@/lib/db";
import { activate } from "@/lib/licences/activations";
import { FIXED_PURCHASE_CODES as CODES } from "@/lib/sandbox";

import type { SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const HASH_KEY = "licence-staff-http-test-hash-key-0123456789";

describe.each(bothServerStores())("on $name", (serverStore) => {
  const {
    sandbox,
    gateway,
    clients: { admin, support, viewer },
  } = setUpGateway({
    store: serverStore,
    signIn: ["admin", "support", "viewer"],
    env: { PURCHASE_CODE_HASH_KEY: HASH_KEY, WEBHOOK_ALLOW_PRIVATE: "1" },
  });

  let store: Store;
  let receiver: WebhookReceiver;
  let endpointId = "";
  let itemId = 0;

  const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const search = (client: SignedInClient, code: string) =>
    client.request("/api/licences/activations/search", json("POST", { purchase_code: code }));
  const resetOne = (client: SignedInClient, id: string, reason: string, headers: Record<string, string> = {}) =>
    client.request(`/api/licences/activations/${id}/reset`, json("POST", { reason }, headers));
  const savePolicy = (client: SignedInClient, id: number, policy: unknown) =>
    client.request(`/api/admin/licences/items/${id}`, json("PUT", policy));

  /** Activates `domain` for `code` in the gateway's store, as the public API would. */
  async function activated(code: string, domain: string, { counted = true, name = null as string | null } = {}) {
    const result = await activate(
      store.db,
      { codeHash: hashPurchaseCode(code, HASH_KEY), itemId, codeLast4: code.slice(-4) },
      { kind: "domain", value: domain, name },
      { counted, allowed: 10, at: new Date() },
    );
    if (result.kind === "limit") throw new Error("the test's limit was reached");
    return result.activation;
  }

  /** The licence.deactivated events stored for the test's endpoint, oldest first. */
  async function deactivatedEvents(): Promise<Array<Record<string, unknown>>> {
    const res = await admin.request(`/api/admin/webhooks/${endpointId}/deliveries`);
    expect(res.status, res.text).toBe(200);
    return (res.json.data as Array<{ payload: string }>)
      .map((delivery) => JSON.parse(delivery.payload) as { type: string; data: Record<string, unknown> })
      .filter((event) => event.type === "licence.deactivated")
      .map((event) => event.data)
      .reverse();
  }

  beforeAll(async () => {
    store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
    receiver = await startWebhookReceiver();
    const created = await admin.request(
      "/api/admin/webhooks",
      json("POST", { url: receiver.url, events: ["licence.deactivated"] }),
    );
    expect(created.status, created.text).toBe(201);
    endpointId = created.json.data.id;
    itemId = (await admin.request("/api/items")).json.data[0].id;
  });
  afterAll(async () => {
    await store?.close();
    await receiver?.close();
  });

  describe("support staff", () => {
    it("lists a code's activations, active first, and never another code's", async () => {
      const shop = await activated(CODES.active, "shop.example.com", { name: "The shop" });
      const dev = await activated(CODES.active, "shop.test", { counted: false });
      await activated(CODES.expired, "other.example.com");

      // The code as a buyer pastes it: in capitals, with spaces around it.
      const res = await search(support, `  ${CODES.active.toUpperCase()} `);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.code_last4).toBe("1111");
      const ids = res.json.data.activations.map((activation: { id: string }) => activation.id);
      expect(new Set(ids)).toEqual(new Set([shop.id, dev.id]));
      expect(res.json.data.activations).toContainEqual(
        expect.objectContaining({
          id: shop.id,
          item_id: itemId,
          instance: { kind: "domain", value: "shop.example.com", name: "The shop" },
          counted: true,
          status: "active",
          deactivated_at: null,
        }),
      );
      expect(res.json.data.activations).toContainEqual(expect.objectContaining({ id: dev.id, counted: false }));
      expect(res.text).not.toContain(CODES.active);

      const none = await search(support, CODES.none);
      expect(none.status).toBe(200);
      expect(none.json.data).toEqual({ code_last4: "3333", activations: [] });
    });

    it("refuses a code that cannot be one, naming why in its field", async () => {
      const res = await search(support, "1111\u04301111");
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe("invalid_input");
      expect(res.json.error.fields.purchase_code).toEqual(expect.stringContaining("Cyrillic"));
    });

    it("resets one activation with a reason: audited, told as licence.deactivated without the code", async () => {
      const moved = await activated(CODES.active, "old-site.example.com");
      const res = await resetOne(support, moved.id, "  The buyer moved to new-site.example.com  ");
      expect(res.status, res.text).toBe(200);
      expect(res.json.data).toMatchObject({
        id: moved.id,
        status: "deactivated",
        deactivated_by: support.user.email,
        reason: "The buyer moved to new-site.example.com",
        deactivated_at: expect.any(String),
      });

      const after = await search(support, CODES.active);
      expect(after.json.data.activations.at(-1)).toMatchObject({ id: moved.id, status: "deactivated" });

      const audit = await admin.request("/api/admin/audit?action=licence.reset");
      expect(audit.json.data[0]).toMatchObject({
        action: "licence.reset",
        outcome: "success",
        user_email: support.user.email,
        detail: {
          activation_id: moved.id,
          reason: "The buyer moved to new-site.example.com",
          item_id: itemId,
          instance: "old-site.example.com",
        },
      });

      const events = await deactivatedEvents();
      expect(events.at(-1)).toEqual({
        activation_id: moved.id,
        item_id: itemId,
        code_hash: hashPurchaseCode(CODES.active, HASH_KEY),
        code_last4: "1111",
        instance: { kind: "domain", value: "old-site.example.com" },
        by: support.user.email,
        reason: "The buyer moved to new-site.example.com",
        staff: { user_id: support.user.id, email: support.user.email, via: "session" },
      });
      expect(JSON.stringify(events)).not.toContain(CODES.active);
    });

    it("says clearly that an activation already reset, or one that does not exist, cannot be reset", async () => {
      const once = await activated(CODES.active, "twice.example.com");
      expect((await resetOne(support, once.id, "moved")).status).toBe(200);
      const eventsBefore = (await deactivatedEvents()).length;

      const again = await resetOne(support, once.id, "moved again");
      expect(again.status, again.text).toBe(409);
      expect(again.json.error.code).toBe("conflict");
      expect(again.json.error.message).toMatch(/already deactivated on \S+ by /);
      expect(again.json.error.message).toContain(`by ${support.user.email}`);
      expect((await deactivatedEvents()).length).toBe(eventsBefore);

      const missing = await resetOne(support, "act_doesnotexist0000", "moved");
      expect(missing.status, missing.text).toBe(404);
      expect(missing.json.error.message).toContain("There is no activation act_doesnotexist0000");

      const notAnId = await resetOne(support, "12345", "moved");
      expect(notAnId.status).toBe(400);
      const noReason = await resetOne(support, once.id, " ");
      expect(noReason.status).toBe(400);
      expect(noReason.json.error.fields.reason).toContain("must say why");
    });

    it("resets every active activation of a code, each one told, the reason audited against the code", async () => {
      const a = await activated(CODES.none, "a.example.com");
      const b = await activated(CODES.none, "b.example.com");
      const eventsBefore = (await deactivatedEvents()).length;
      const res = await support.request(
        "/api/licences/reset",
        json("POST", { purchase_code: CODES.none, item_id: itemId, reason: "Refund agreed by mail" }),
      );
      expect(res.status, res.text).toBe(200);
      expect(res.json.data).toEqual({ reset: 2 });

      const after = await search(support, CODES.none);
      expect(after.json.data.activations.map((activation: { status: string }) => activation.status)).toEqual([
        "deactivated",
        "deactivated",
      ]);
      const events = (await deactivatedEvents()).slice(eventsBefore);
      expect(new Set(events.map((event) => event.activation_id))).toEqual(new Set([a.id, b.id]));
      expect(events.every((event) => event.reason === "Refund agreed by mail")).toBe(true);

      const audit = await admin.request("/api/admin/audit?action=licence.reset");
      expect(audit.json.data[0]).toMatchObject({
        action: "licence.reset",
        outcome: "success",
        target: { type: "purchase_code" },
        detail: { reason: "Refund agreed by mail", item_id: itemId, reset: 2, last4: "3333" },
      });
      expect(audit.text).not.toContain(CODES.none);

      // Nothing left active: nothing to reset, and no event.
      const again = await support.request(
        "/api/licences/reset",
        json("POST", { purchase_code: CODES.none, reason: "Again" }),
      );
      expect(again.json.data).toEqual({ reset: 0 });
      expect((await deactivatedEvents()).length).toBe(eventsBefore + 2);
    });

    it("finds what a copy activated through the licence API, in any case, and the copy learns of the reset", async () => {
      const checked = await support.request("/api/purchases/validate", json("POST", { purchase_code: CODES.letters }));
      expect(checked.status, checked.text).toBe(200);
      const item = checked.json.data.purchase.item.id as number;
      const enabled = await savePolicy(admin, item, {
        enabled: true,
        limits: { regular: 3, extended: 3 },
        never_count: [],
        revoked_deactivates: true,
      });
      expect(enabled.status, enabled.text).toBe(200);
      // The copy sends the code in capitals; the support person types it in lower case.
      const copy = (op: "activate" | "validate") =>
        gateway.request(
          `/api/licences/${op}`,
          json("POST", {
            purchase_code: CODES.letters.toUpperCase(),
            item_id: item,
            instance: { domain: "https://www.Copy.example.com/" },
          }),
        );
      const activated = await copy("activate");
      expect(activated.status, activated.text).toBe(200);
      const id = activated.json.data.activation.id as string;

      const found = await search(support, CODES.letters);
      expect(found.json.data.activations).toEqual([
        expect.objectContaining({
          id,
          item_id: item,
          instance: expect.objectContaining({ value: "copy.example.com" }),
        }),
      ]);
      expect((await resetOne(support, id, "Moved to another host")).status).toBe(200);

      const validated = await copy("validate");
      expect(validated.status, validated.text).toBe(200);
      expect(validated.json.data).toMatchObject({
        active: false,
        activation: { id, status: "deactivated", deactivated_by: support.user.email, reason: "Moved to another host" },
      });
    });

    it("sees a refund the checker found already applied: the activations released by refund, before any copy calls", async () => {
      const checked = await support.request("/api/purchases/validate", json("POST", { purchase_code: CODES.none }));
      expect(checked.status, checked.text).toBe(200);
      const item = checked.json.data.purchase.item.id as number;
      const enabled = await savePolicy(admin, item, {
        enabled: true,
        limits: { regular: 3, extended: 3 },
        never_count: [],
        revoked_deactivates: true,
      });
      expect(enabled.status, enabled.text).toBe(200);
      const copy = await gateway.request(
        "/api/licences/activate",
        json("POST", { purchase_code: CODES.none, item_id: item, instance: { domain: "refunded.example" } }),
      );
      expect(copy.status, copy.text).toBe(200);
      await sandbox.setPurchase(CODES.none, { reversed: true });
      try {
        const rechecked = await support.request("/api/purchases/validate", json("POST", { purchase_code: CODES.none }));
        expect(rechecked.json.data.lifecycle.revoked).toBe(true);
        const found = await search(support, CODES.none);
        // (The activations earlier tests gave this code are listed too.)
        const released = (found.json.data.activations as Array<{ id: string }>).find(
          (activation) => activation.id === copy.json.data.activation.id,
        );
        expect(released).toMatchObject({ item_id: item, status: "deactivated", deactivated_by: "refund" });
        expect((await deactivatedEvents()).at(-1)).toMatchObject({
          by: "refund",
          activation_id: copy.json.data.activation.id,
        });
      } finally {
        await sandbox.setPurchase(CODES.none, { reversed: false });
      }
    });

    it("refuses a reset from a foreign Origin (CSRF), and a viewer (403)", async () => {
      const kept = await activated(CODES.expired, "kept.example.com");
      const foreign = await resetOne(support, kept.id, "forged", { Origin: "https://evil.example" });
      expect(foreign.status, foreign.text).toBe(403);
      expect(foreign.json.error.code).toBe("csrf");

      const viewerReset = await resetOne(viewer, kept.id, "not mine to do");
      expect(viewerReset.status).toBe(403);
      expect(viewerReset.json.error.code).toBe("forbidden");
      expect((await search(viewer, CODES.expired)).status).toBe(403);
      expect(
        (await viewer.request("/api/licences/reset", json("POST", { purchase_code: CODES.expired, reason: "no" })))
          .status,
      ).toBe(403);

      const still = await search(support, CODES.expired);
      expect(still.json.data.activations).toContainEqual(expect.objectContaining({ id: kept.id, status: "active" }));
    });
  });

  describe("admins", () => {
    it("read every item with its policy (the defaults, off), the public keys and where they are published", async () => {
      const res = await admin.request("/api/admin/licences");
      expect(res.status, res.text).toBe(200);
      const items = (await admin.request("/api/items")).json.data as Array<{ id: number; name: string }>;
      expect(res.json.data.items.map((item: { item_id: number }) => item.item_id)).toEqual(
        items.map((item) => item.id),
      );
      expect(res.json.data.items[0]).toMatchObject({ item_id: items[0]!.id, item_name: items[0]!.name });
      // An item no admin saved a policy for (support's test above turned one on): the defaults, off.
      expect(
        res.json.data.items.find((item: { policy: { updated_at: string | null } }) => item.policy.updated_at === null),
      ).toMatchObject({ policy: { enabled: false, limits: { regular: 1, extended: 5 }, updated_by: null } });
      expect(res.json.data.keys).toHaveLength(1);
      expect(res.json.data.keys[0]).toMatchObject({
        alg: "Ed25519",
        public_key: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
        pem: expect.stringContaining("-----BEGIN PUBLIC KEY-----"),
      });
      expect(res.json.data.keys_path).toBe(LICENCE_KEYS_PATH);
      expect(res.json.data.keys_url).toBe(`${gateway.url}${LICENCE_KEYS_PATH}`);
    });

    it("save an item's policy (audited) and read it back", async () => {
      const policy = {
        enabled: true,
        limits: { regular: 2, extended: 10 },
        never_count: ["localhost", "*.Test", "staging.*", "localhost"],
        revoked_deactivates: false,
      };
      const res = await savePolicy(admin, itemId, policy);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data).toMatchObject({
        item_id: itemId,
        enabled: true,
        limits: { regular: 2, extended: 10 },
        never_count: ["localhost", "*.test", "staging.*"],
        revoked_deactivates: false,
        updated_by: admin.user.email,
      });
      const state = await admin.request("/api/admin/licences");
      const item = state.json.data.items.find((entry: { item_id: number }) => entry.item_id === itemId);
      expect(item.policy).toEqual(res.json.data);

      const audit = await admin.request("/api/admin/audit?action=licence.policy_update");
      expect(audit.json.data[0]).toMatchObject({
        outcome: "success",
        detail: {
          item_id: itemId,
          enabled: true,
          regular: 2,
          extended: 10,
          never_count: ["localhost", "*.test", "staging.*", "localhost"],
          revoked_deactivates: false,
        },
      });
    });

    it("are told per field what is wrong with a bad policy", async () => {
      const res = await savePolicy(admin, itemId, {
        enabled: "yes",
        limits: { regular: -1, extended: 1.5 },
        never_count: ["*foo*"],
        revoked_deactivates: true,
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe("invalid_input");
      expect(res.json.error.fields).toEqual({
        enabled: "enabled must be true or false",
        "limits.regular": "limits.regular must be 0 or more",
        "limits.extended": "limits.extended must be a whole number",
        "never_count.0": expect.stringContaining("must be a domain (localhost), a wildcard before one (*.test)"),
      });
      expect((await savePolicy(admin, itemId, { enabled: true })).status).toBe(400);
      expect((await admin.request("/api/admin/licences/items/abc", json("PUT", {}))).status).toBe(400);
    });

    it("are the only ones who may", async () => {
      expect((await support.request("/api/admin/licences")).status).toBe(403);
      const saved = await savePolicy(support, itemId, {
        enabled: false,
        limits: { regular: 1, extended: 1 },
        never_count: [],
        revoked_deactivates: true,
      });
      expect(saved.status).toBe(403);
      expect(saved.json.error.code).toBe("forbidden");
    });
  });
});
