// A purchase over its life, over real HTTP (next start ↔ sandbox, on SQLite and on PostgreSQL): a valid code whose
// sale the sandbox reverses reads as revoked (the checker's answer, a helpdesk's, the history's own outcome, one
// purchase.revoked however often it is checked again), and valid again when reinstated; with the item API down a
// code checked before gets its last verdict marked stale, a code never checked the failure, and a 429 is passed on;
// support moved to 9 days from now is said; a code checked from three tickets is flagged possibly shared, once.
import { describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES as CODES } from "@/lib/sandbox";

import type { SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const VALIDATION_PATH = "/market/api/purchases/validation";
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const DAY_MS = 86_400_000;

describe.each(bothServerStores())("on $name", (store) => {
  const {
    sandbox,
    gateway,
    clients: { admin, support, editor },
  } = setUpGateway({
    signIn: ["admin", "support", "editor"],
    env: async () => ({
      DATABASE_URL: await store.create(),
      WEBHOOK_ALLOW_PRIVATE: "1",
      PURCHASE_RATE_LIMIT_PER_USER: "1000",
      PURCHASE_RATE_LIMIT_PER_IP: "1000",
    }),
  });

  const validate = (client: SignedInClient, code: string, ticket?: { system: string; id: string }) =>
    client.request("/api/purchases/validate", json(ticket ? { purchase_code: code, ticket } : { purchase_code: code }));
  const history = async (client: SignedInClient, code: string) =>
    (await client.request("/api/purchases/history/search", json({ code }))).json.data as Array<Record<string, unknown>>;

  let receiver: WebhookReceiver | undefined;
  let endpointId = "";
  /** The events of `type` stored for the endpoint (each is stored before the answer that set it off goes). */
  async function events(type: string): Promise<Array<Record<string, unknown>>> {
    if (!receiver) {
      receiver = await startWebhookReceiver();
      const created = await admin.request(
        "/api/admin/webhooks",
        json({
          url: receiver.url,
          events: ["purchase.revoked", "purchase.shared_suspected", "purchase.checked"],
        }),
      );
      expect(created.status, created.text).toBe(201);
      endpointId = created.json.data.id;
      return [];
    }
    const log = (await admin.request(`/api/admin/webhooks/${endpointId}/deliveries`)).json.data as Array<{
      payload: string;
    }>;
    return log
      .map((delivery) => JSON.parse(delivery.payload) as { type: string; data: Record<string, unknown> })
      .filter((event) => event.type === type)
      .map((event) => event.data);
  }

  it("a valid code whose sale is reversed reads as revoked, with what was bought; purchase.revoked is sent once", async () => {
    expect(await events("purchase.revoked")).toEqual([]); // the endpoint, before anything happens
    const first = await validate(support, CODES.active);
    expect(first.json.data).toMatchObject({ valid: true, stale: false, lifecycle: { revoked: false } });
    const item = first.json.data.purchase.item as { id: number; name: string };

    await sandbox.setPurchase(CODES.active, { reversed: true });
    try {
      const revoked = await validate(editor, CODES.active);
      expect(revoked.status, revoked.text).toBe(200);
      expect(revoked.json.data).toMatchObject({
        valid: false,
        stale: false,
        suggestion: null,
        lifecycle: {
          revoked: true,
          previously_valid: {
            item: { id: item.id, name: item.name },
            license_type: first.json.data.purchase.license_type,
            supported_until: first.json.data.purchase.supported_until,
            sold_at: first.json.data.purchase.date,
          },
        },
      });
      expect(revoked.json.data.message).toMatch(
        new RegExp(
          `^Valid on \\d{1,2} \\w{3} \\d{4} \\(.+, item ${item.name.replace(/[^\w ]/g, ".")}\\), not valid now`,
        ),
      );
      expect(revoked.json.data.message).toContain("the sale was probably refunded or reversed");

      // Checked again: revoked again, and no second event.
      expect((await validate(support, CODES.active)).json.data.lifecycle.revoked).toBe(true);
      const sent = await events("purchase.revoked");
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ code_last4: "1111", previously_valid: { item: { id: item.id } } });
      expect(JSON.stringify(sent)).not.toContain(CODES.active);
      // The check's own event says revoked too.
      expect((await events("purchase.checked")).map((e) => e.outcome)).toEqual(["revoked", "revoked", "valid"]); // newest first

      // The history: its own outcome, with the item it was, and filterable.
      const rows = await history(support, CODES.active);
      expect(rows.map((row) => row.outcome)).toEqual(["revoked", "revoked", "valid"]);
      expect(rows[0]).toMatchObject({ item_id: item.id, item_name: item.name, support: null });
      const filtered = await support.request("/api/purchases/history?outcome=revoked");
      expect(filtered.json.data.every((row: { outcome: string }) => row.outcome === "revoked")).toBe(true);
      expect(filtered.json.meta.total).toBe(2);
    } finally {
      await sandbox.setPurchase(CODES.active, { reversed: false });
    }
    // Reinstated: valid again, and a later reversal is a new revocation.
    expect((await validate(support, CODES.active)).json.data).toMatchObject({ valid: true });
  });

  it("a code never valid is only invalid: no revocation, no event", async () => {
    const res = await validate(support, "ffffffff-0000-4000-8000-00000000f00d");
    expect(res.json.data).toMatchObject({
      valid: false,
      message: "Invalid purchase code",
      lifecycle: { revoked: false, previously_valid: null },
    });
    expect(await events("purchase.revoked")).toHaveLength(1); // the one of the test before
  });

  it("with the item API down, a code checked before gets its last verdict marked stale; one never checked, the failure", async () => {
    await validate(support, CODES.expired);
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 503 });
    try {
      const stale = await validate(editor, CODES.expired);
      expect(stale.status, stale.text).toBe(200);
      expect(stale.json.data).toMatchObject({
        stale: true,
        valid: true,
        checked_code: CODES.expired,
        last_verdict: { outcome: "valid", checked_by: "support@gatehouse.test", support: "expired" },
        history: { previous_checks: 1 },
      });
      expect(stale.json.data.message).toMatch(
        /^Valid as of (moments|\d+ minutes?) ago, checked by support@gatehouse\.test\./,
      );
      expect(stale.json.data.message).toContain("not fresh");
      expect(stale.json.data.failure).toEqual(expect.any(String));
      expect(stale.json.data).not.toHaveProperty("purchase");

      // A revoked code's last verdict is revoked.
      await sandbox.clearFaults();
      await sandbox.setPurchase(CODES.none, { reversed: true });
      await validate(support, CODES.none); // never valid here before: plain invalid
      await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 503 });
      expect((await validate(support, CODES.none)).json.data).toMatchObject({
        stale: true,
        valid: false,
        last_verdict: { outcome: "invalid", reason: "Invalid purchase code" },
      });

      const unknown = await validate(editor, "eeeeeeee-0000-4000-8000-00000000e00e");
      expect(unknown.status).toBe(502);
      expect(unknown.json.error.code).toBe("upstream_error");

      // The failed check is in the history as failed, beside the verdict it was answered with.
      const rows = await history(support, CODES.expired);
      expect(rows.map((row) => row.outcome)).toEqual(["failed", "valid"]);
    } finally {
      await sandbox.clearFaults();
      await sandbox.setPurchase(CODES.none, { reversed: false });
    }

    // A 429 asks the caller to wait: passed on with Retry-After, not answered from the last verdict.
    await sandbox.injectFault({
      method: "POST",
      path: VALIDATION_PATH,
      kind: "status",
      status: 429,
      headers: { "Retry-After": "7" },
      times: 1,
    });
    const limited = await validate(support, CODES.expired);
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "7"]);
  });

  it("says how many days of support are left when they are few", async () => {
    const soon = new Date(Date.now() + 9 * DAY_MS + 3_600_000).toISOString();
    await sandbox.setPurchase(CODES.none, { supported_until: soon });
    try {
      const res = await validate(support, CODES.none);
      expect(res.json.data).toMatchObject({ valid: true, lifecycle: { support_ends_in_days: 9, renewal_url: null } });
    } finally {
      await sandbox.setPurchase(CODES.none, { supported_until: null });
    }
    // Far off, or none: nothing said.
    expect((await validate(support, CODES.active)).json.data.lifecycle.support_ends_in_days).toBeNull();
    expect((await validate(support, CODES.none)).json.data.lifecycle.support_ends_in_days).toBeNull();
  });

  it("flags a code checked from three helpdesk tickets as possibly shared, in the answer and the history; the event once", async () => {
    const code = CODES.letters;
    for (const id of ["4211", "4212"]) {
      const res = await validate(support, code, { system: "zendesk", id });
      expect(res.json.data.lifecycle.shared_suspected).toBeNull();
    }
    const third = await validate(support, code, { system: "freshdesk", id: "77" });
    expect(third.json.data.lifecycle.shared_suspected).toEqual({
      window_days: 30,
      tickets: 3,
      tokens: 0,
      addresses: 0,
    });
    const fourth = await validate(editor, code, { system: "zendesk", id: "4211" });
    expect(fourth.json.data.lifecycle.shared_suspected).toMatchObject({ tickets: 3 });

    const rows = await history(support, code);
    expect(rows.map((row) => row.shared_suspected)).toEqual([true, true, false, false]);
    const sent = await events("purchase.shared_suspected");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ tickets: 3, window_days: 30 });
    expect(JSON.stringify(sent)).not.toContain(code);
  });

  it("answers a helpdesk's lookup with the same life: revoked, then the last verdict while the item API is down", async () => {
    const created = await support.request(
      "/api/tokens",
      json({ name: "helpdesk", scopes: ["purchases:check"], expires_in_days: 7 }),
    );
    const token = created.json.data.secret as string;
    const lookup = () =>
      gateway.request(
        "/api/helpdesk/lookup",
        json(
          { text: `My code: ${CODES.expired}`, ticket: { system: "zendesk", id: "9001" } },
          { Authorization: `Bearer ${token}` },
        ),
      );
    await sandbox.setPurchase(CODES.expired, { reversed: true });
    try {
      const revoked = await lookup();
      expect(revoked.status, revoked.text).toBe(200);
      expect(revoked.json.data.codes[0]).toMatchObject({
        code_last4: "2222",
        outcome: "revoked",
        valid: false,
        lifecycle: { revoked: true, previously_valid: { license_type: expect.any(String) } },
        last_verdict: null,
      });
      expect(revoked.json.data.codes[0].message).toContain("not valid now");

      await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 503 });
      const stale = await lookup();
      expect(stale.json.data.codes[0]).toMatchObject({
        outcome: "failed",
        last_verdict: { outcome: "revoked" },
        lifecycle: { revoked: true },
      });
      expect(stale.json.data.codes[0].message).toMatch(/^Revoked \(valid before, then refused\) as of/);
      expect(JSON.stringify(stale.json)).not.toContain(CODES.expired);
    } finally {
      await sandbox.clearFaults();
      await sandbox.setPurchase(CODES.expired, { reversed: false });
    }
  });
});
