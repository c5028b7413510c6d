// The public licence API over real HTTP (next start ↔ sandbox, on SQLite and on PostgreSQL), as an installed copy
// meets it: activate to the limit and one past it (403, naming the copies in use), the same instance twice (one
// activation, whatever its spelling), deactivate and activate elsewhere, a never-counted domain, a code of another
// item and a code that is no purchase (404), an item whose API is off (404), a refunded purchase (its activations
// released), hostile input (400 with the field's reason); every answer, errors too, signed and verified with the
// published key, and a changed byte failing verification; the events said.
import { createPublicKey, verify } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { LicencePolicyBody } from "@/lib/contract/licences";
import { FIXED_PURCHASE_CODES as CODES } from "@/lib/sandbox";

import type { GatewayResponse } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const post = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

describe.each(bothServerStores())("on $name", (store) => {
  const {
    sandbox,
    gateway,
    clients: { admin },
  } = setUpGateway({
    signIn: ["admin"],
    env: async () => ({
      DATABASE_URL: await store.create(),
      WEBHOOK_ALLOW_PRIVATE: "1",
      LICENCE_RATE_LIMIT_PER_IP: "10000",
      LICENCE_RATE_LIMIT_PER_CODE: "10000",
      ITEMS_API_CALLS_PER_MINUTE: "600",
    }),
  });

  let receiver: WebhookReceiver;
  let endpointId = "";
  /** The item and licence type of each fixed code, as the checker says. */
  const items: Record<string, { id: number; licence: string }> = {};
  let publicKeyPem = "";

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    const created = await admin.request(
      "/api/admin/webhooks",
      post({ url: receiver.url, events: ["licence.activated", "licence.deactivated", "licence.limit_reached"] }),
    );
    expect(created.status, created.text).toBe(201);
    endpointId = created.json.data.id;
    for (const code of [CODES.active, CODES.expired, CODES.none, CODES.letters]) {
      const checked = await admin.request("/api/purchases/validate", post({ purchase_code: code }));
      expect(checked.status, checked.text).toBe(200);
      items[code] = { id: checked.json.data.purchase.item.id, licence: checked.json.data.purchase.license_type };
    }
    const keys = await gateway.request("/.well-known/gatehouse-licence-keys.json");
    expect(keys.status, keys.text).toBe(200);
    expect(keys.json.keys).toHaveLength(1);
    publicKeyPem = keys.json.keys[0].pem;
    expect(Buffer.from(keys.json.keys[0].public_key, "base64")).toHaveLength(32);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** An admin turns the item's licence API on, through Admin → Licences' API. */
  async function enable(itemId: number, policy: Partial<LicencePolicyBody> = {}) {
    const saved = await admin.request(`/api/admin/licences/items/${itemId}`, {
      ...post({
        enabled: true,
        limits: { regular: 2, extended: 5 },
        never_count: ["localhost", "*.test", "staging.*"],
        revoked_deactivates: true,
        ...policy,
      }),
      method: "PUT",
    });
    expect(saved.status, saved.text).toBe(200);
  }

  /** A licence call as a copy makes it: no cookie, no token. */
  const call = (
    op: "activate" | "validate" | "deactivate",
    code: string,
    instance: Record<string, string>,
    nonce?: string,
  ) =>
    gateway.request(
      `/api/licences/${op}`,
      post({ purchase_code: code, item_id: items[code]!.id, instance, ...(nonce ? { nonce } : {}) }),
    );

  /** Whether the answer's signature verifies with the published key over exactly these bytes. */
  const verifies = (response: GatewayResponse, body: Buffer = Buffer.from(response.text)) =>
    verify(
      null,
      body,
      createPublicKey(publicKeyPem),
      Buffer.from(response.headers.get("gatehouse-signature") ?? "", "base64"),
    );

  async function events(type: string): Promise<Array<Record<string, unknown>>> {
    const log = (await admin.request(`/api/admin/webhooks/${endpointId}/deliveries`)).json.data as Array<{
      payload: string;
    }>;
    return log
      .map((delivery) => JSON.parse(delivery.payload) as { type: string; data: Record<string, unknown> })
      .filter((event) => event.type === type)
      .map((event) => event.data);
  }

  it("an item whose licence API is off answers 404, signed", async () => {
    const off = await call("activate", CODES.expired, { domain: "example.com" });
    expect(off.status, off.text).toBe(404);
    expect(off.json.error.message).toMatch(/not turned them on/);
    expect(verifies(off)).toBe(true);
  });

  it("activates to the limit, refuses one past it naming the copies in use, and frees one by deactivating", async () => {
    await enable(items[CODES.active]!.id);
    const first = await call(
      "activate",
      CODES.active,
      { domain: "https://www.Shop-One.example/wp-admin", name: "Shop one" },
      "n-1",
    );
    expect(first.status, first.text).toBe(200);
    expect(first.json.data).toMatchObject({
      active: true,
      licence: {
        status: "active",
        item_id: items[CODES.active]!.id,
        code_last4: "1111",
        activations: { used: 1, allowed: 2 },
      },
      activation: {
        instance: { kind: "domain", value: "shop-one.example", name: "Shop one" },
        counted: true,
        status: "active",
      },
      verdict: { fresh: true },
      nonce: "n-1",
    });
    expect(first.json.data.licence.licence_type).toBe(items[CODES.active]!.licence);
    expect(first.headers.get("gatehouse-signature-key")).toMatch(/^[0-9a-f]{16}$/);
    expect(verifies(first)).toBe(true);
    // A changed byte (the nonce, as an attacker replaying it would change it) fails verification.
    expect(verifies(first, Buffer.from(first.text.replace('"n-1"', '"n-2"')))).toBe(false);
    expect(JSON.stringify(first.json)).not.toContain(CODES.active);

    // The same instance, spelt otherwise: the same activation.
    const again = await call("activate", CODES.active, { domain: "SHOP-ONE.example." });
    expect(again.status, again.text).toBe(200);
    expect(again.json.data.activation.id).toBe(first.json.data.activation.id);
    expect(again.json.data.licence.activations.used).toBe(1);

    const second = await call("activate", CODES.active, { domain: "shop-two.example" });
    expect(second.json.data.licence.activations).toEqual({ used: 2, allowed: 2 });
    const third = await call("activate", CODES.active, { domain: "shop-three.example" });
    expect(third.status, third.text).toBe(403);
    expect(third.json.error.code).toBe("activation_limit_reached");
    expect(third.json.error.message).toMatch(
      /allows 2 activations, and 2 are in use \(shop-(one|two)\.example, shop-(one|two)\.example\)/,
    );
    expect(third.json.error.message).toMatch(/deactivate/i);
    expect(verifies(third)).toBe(true);

    const freed = await call("deactivate", CODES.active, { domain: "shop-two.example" });
    expect(freed.status, freed.text).toBe(200);
    expect(freed.json.data).toMatchObject({
      active: false,
      activation: { status: "deactivated", deactivated_by: "copy" },
    });
    expect(freed.json.data.licence.activations.used).toBe(1);
    expect(verifies(freed)).toBe(true);
    const moved = await call("activate", CODES.active, { domain: "shop-three.example" });
    expect(moved.status, moved.text).toBe(200);
    const gone = await call("validate", CODES.active, { domain: "shop-two.example" });
    expect(gone.json.data).toMatchObject({ active: false, licence: { status: "active" } });
    const kept = await call("validate", CODES.active, { domain: "shop-one.example" });
    expect(kept.json.data).toMatchObject({ active: true, activation: { id: first.json.data.activation.id } });
    expect(verifies(kept)).toBe(true);
    const twice = await call("deactivate", CODES.active, { domain: "shop-two.example" });
    expect(twice.status, twice.text).toBe(404);

    expect((await events("licence.limit_reached")).length).toBe(1);
    const activated = await events("licence.activated");
    expect(activated.map((event) => (event.instance as { value: string }).value).sort()).toEqual([
      "shop-one.example",
      "shop-three.example",
      "shop-two.example",
    ]);
    expect(JSON.stringify(activated)).not.toContain(CODES.active);
    expect((await events("licence.deactivated")).map((event) => event.by)).toEqual(["copy"]);
  });

  it("a never-counted domain takes no activation, even at the limit; an id is compared exactly", async () => {
    await enable(items[CODES.letters]!.id, { limits: { regular: 1, extended: 1 } });
    const shop = await call("activate", CODES.letters, { domain: "live.example" });
    expect(shop.json.data.licence.activations).toEqual({ used: 1, allowed: 1 });
    for (const domain of ["localhost", "dev.shop.test", "staging.live.example"]) {
      const local = await call("activate", CODES.letters, { domain });
      expect(local.status, local.text).toBe(200);
      expect(local.json.data).toMatchObject({
        active: true,
        activation: { counted: false },
        licence: { activations: { used: 1 } },
      });
    }
    const machine = await call("activate", CODES.letters, { id: "Machine-A" });
    expect(machine.status, machine.text).toBe(403);
  });

  it("a code of another item, and a code that is no purchase, are 404; hostile input is a 400 naming the field", async () => {
    await enable(items[CODES.none]!.id);
    const other = await gateway.request(
      "/api/licences/activate",
      post({ purchase_code: CODES.none, item_id: items[CODES.active]!.id, instance: { domain: "x.example" } }),
    );
    expect(other.status, other.text).toBe(404);
    expect(other.json.error.message).toMatch(/not a valid purchase of item/);
    const nothing = await gateway.request(
      "/api/licences/activate",
      post({
        purchase_code: "44444444-4444-4444-8444-444444444444",
        item_id: items[CODES.none]!.id,
        instance: { domain: "x.example" },
      }),
    );
    expect(nothing.status, nothing.text).toBe(404);
    expect(verifies(nothing)).toBe(true);

    const badDomain = await call("activate", CODES.none, { domain: "<script>.example" });
    expect(badDomain.status, badDomain.text).toBe(400);
    expect(badDomain.json.error.fields["instance.domain"]).toMatch(/not a domain/);
    expect(verifies(badDomain)).toBe(true);
    const both = await gateway.request(
      "/api/licences/activate",
      post({ purchase_code: CODES.none, item_id: items[CODES.none]!.id, instance: { domain: "a.example", id: "b" } }),
    );
    expect(both.status, both.text).toBe(400);
    expect(both.text).toMatch(/either a domain or an id/);
  });

  it("a refunded purchase releases its activations and activates nothing more", async () => {
    await enable(items[CODES.expired]!.id);
    const live = await call("activate", CODES.expired, { domain: "refunded.example" });
    expect(live.status, live.text).toBe(200);
    await sandbox.setPurchase(CODES.expired, { reversed: true });
    try {
      // The checker finds the refund; the licence API answers from that verdict at once (no wait for the cache).
      const checked = await admin.request("/api/purchases/validate", post({ purchase_code: CODES.expired }));
      expect(checked.json.data.lifecycle.revoked).toBe(true);
      const validated = await call("validate", CODES.expired, { domain: "refunded.example" });
      expect(validated.status, validated.text).toBe(200);
      expect(validated.json.data).toMatchObject({
        active: false,
        licence: { status: "revoked", activations: { used: 0 } },
        activation: { status: "deactivated", deactivated_by: "refund" },
      });
      const more = await call("activate", CODES.expired, { domain: "another.example" });
      expect(more.status, more.text).toBe(404);
      expect(more.json.error.message).toMatch(/refunded or reversed/);
      expect((await events("licence.deactivated")).some((event) => event.by === "refund")).toBe(true);
    } finally {
      await sandbox.setPurchase(CODES.expired, { reversed: false });
    }
  });
});
