// The production build (`next start`) on PostgreSQL, over real HTTP. The store tests run the repositories
// unbundled; here the bundler has split the server into chunks, each with its own copy of Kysely and of our
// modules, while the store, the upstream policies and the configuration are shared by the process. Decisions that
// rested on class identity (`instanceof PostgresAdapter`, `instanceof UpstreamError`) failed only here: every
// write transaction answered 500 on PostgreSQL, and an open breaker answered 500 instead of 503.
import { createHmac } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { setUpGateway } from "@/tests/support/set-up-gateway";
import { until } from "@/tests/support/until";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const VALIDATION_PATH = "/market/api/purchases/validation";
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

const {
  sandbox,
  gateway,
  client: admin,
} = setUpGateway({
  store: "postgres",
  // The breaker opens after two failed attempts and stays open for the whole file.
  env: { UPSTREAM_BREAKER_FAILURES: "2", UPSTREAM_BREAKER_OPEN_MS: "600000", WEBHOOK_ALLOW_PRIVATE: "1" },
  signIn: "admin",
  assertNoKeyLeaked: true,
  startTimeoutMs: 90_000,
});

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

describe("the breaker, when a page render was the first upstream call of the process", () => {
  it("pages show the failure card, the API answers 503 upstream_unavailable, readiness 503", async () => {
    await sandbox.injectFault({ path: "/seo/*", kind: "status", status: 500 });
    // The reports page asks for reports and for the project names: two failures open area A's breaker.
    const first = await admin.request("/reports");
    expect(first.status).toBe(200);
    expect(first.text).toContain("The reports could not be loaded");
    const open = await admin.request("/reports");
    expect(open.status).toBe(200);
    expect(open.text).toMatch(/The reports service is not answering; retrying in \d+ s/);

    const api = await admin.request("/api/reports");
    expect(api.status, api.text).toBe(503);
    expect(api.json.error.code).toBe("upstream_unavailable");
    expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
    const ready = await gateway.request("/api/ready");
    expect(ready.status, ready.text).toBe(503);
    await sandbox.clearFaults();
  });
});

describe("admin changes", () => {
  it("keeps the time zone a person picks, and refuses a name that is no zone", async () => {
    const picked = await admin.request("/api/auth/me", json("PATCH", { time_zone: "America/Los_Angeles" }));
    expect(picked.status, picked.text).toBe(200);
    expect((await admin.request("/api/auth/me")).json.data.user.time_zone).toBe("America/Los_Angeles");
    const refused = await admin.request("/api/auth/me", json("PATCH", { time_zone: "Berlin" }));
    expect([refused.status, Object.keys(refused.json.error.fields)]).toEqual([400, ["time_zone"]]);
    const cleared = await admin.request("/api/auth/me", json("PATCH", { time_zone: null }));
    expect(cleared.json.data.user.time_zone).toBeNull();
  });

  it("creates a user, changes his role and disables him; each change ends his sessions", async () => {
    const created = await admin.request(
      "/api/admin/users",
      json("POST", { email: "pg-user@gatehouse.test", name: "Pat", role: "viewer", password: "a password for pat" }),
    );
    expect(created.status, created.text).toBe(201);
    const pat = await gateway.signIn({ email: "pg-user@gatehouse.test", password: "a password for pat" });

    const promoted = await admin.request(`/api/admin/users/${created.json.data.id}`, json("PATCH", { role: "editor" }));
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.json.data.role).toBe("editor");
    expect((await pat.request("/api/auth/me")).status).toBe(401);

    const disabled = await admin.request(`/api/admin/users/${created.json.data.id}`, json("PATCH", { disabled: true }));
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.json.data.disabled).toBe(true);
    // The last active admin is still protected, which takes the row locks only PostgreSQL has.
    const demote = await admin.request(`/api/admin/users/${admin.user.id}`, json("PATCH", { role: "viewer" }));
    expect(demote.status).toBe(409);
    expect(demote.json.error.code).toBe("last_admin");
  });
});

describe("bulk purchase checks", () => {
  it("creates a job and cancels it while it runs", async () => {
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "latency", latencyMs: 500 });
    const codes = Array.from({ length: 30 }, (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`);
    const created = await admin.request("/api/purchases/bulk", json("POST", { codes }));
    expect(created.status, created.text).toBe(202);
    expect(created.json.data.total).toBe(30);

    const cancelled = await admin.request(`/api/purchases/bulk/${created.json.data.id}`, { method: "DELETE" });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json.data.status).toBe("cancelled");
    // Checks under way at the cancel still finish; once the job has settled, none of them can succeed later and
    // reset area B's breaker count between the two failures the last test counts on.
    const job = await until(
      async () => {
        const answer = await admin.request(`/api/purchases/bulk/${created.json.data.id}`);
        return !answer.json.data.settling && answer;
      },
      "the cancelled job settled",
      30_000,
      50,
    );
    expect(job.json.data).toMatchObject({ status: "cancelled", total: 30 });
    expect(job.json.data.cancelled).toBeGreaterThan(0);
    await sandbox.clearFaults();
  });
});

// Last: it opens area B's breaker for the rest of the file.
describe("the helpdesk", () => {
  it("a lookup keeps its ticket; Help Scout's secret is kept sealed, rotated, and its signed card answers", async () => {
    const token = await admin.request(
      "/api/tokens",
      json("POST", { name: "pg helpdesk", scopes: ["purchases:check"], expires_in_days: 7 }),
    );
    expect(token.status, token.text).toBe(201);
    const lookup = await gateway.request("/api/helpdesk/lookup", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token.json.data.secret}` },
      body: JSON.stringify({
        text: `My code: {${FIXED_PURCHASE_CODES.active.toUpperCase()}}`,
        ticket: { system: "zendesk", id: "pg-1", url: "https://acme.zendesk.com/agent/tickets/1" },
      }),
    });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.json.data.codes).toMatchObject([{ code_last4: "1111", outcome: "valid" }]);
    const kept = await admin.request("/api/purchases/history?ticket=zendesk:pg-1");
    expect(kept.json.data).toMatchObject([
      {
        source: "helpdesk",
        ticket: { system: "zendesk", id: "pg-1", url: "https://acme.zendesk.com/agent/tickets/1" },
      },
    ]);

    // Made, then rotated: the second write is the upsert's update on PostgreSQL.
    const first = await admin.request("/api/admin/helpdesk/helpscout-secret", { method: "POST" });
    expect(first.status, first.text).toBe(201);
    const second = await admin.request("/api/admin/helpdesk/helpscout-secret", { method: "POST" });
    expect(second.json.data.rotated).toBe(true);
    const body = JSON.stringify({ ticket: { id: 77, number: 77, subject: `Code ${FIXED_PURCHASE_CODES.expired}` } });
    const card = (secret: string) =>
      gateway.request("/api/helpdesk/helpscout", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-HelpScout-Signature": createHmac("sha1", secret).update(body).digest("base64"),
        },
        body,
      });
    expect((await card(first.json.data.secret)).status).toBe(401);
    const signed = await card(second.json.data.secret);
    expect(signed.status, signed.text).toBe(200);
    expect(signed.json.html).toContain("…2222");
    const settings = await admin.request("/api/admin/helpdesk");
    expect(settings.json.data.helpscout.set).toBe(true);
    expect(settings.json.data.last_lookups.helpscout[0]).toMatchObject({ ticket: { system: "helpscout", id: "77" } });
  });
});

describe("API tokens and webhooks", () => {
  it("a token checks a code and is refused once revoked; the check and the breaker's opening are delivered, signed", async () => {
    const endpoint = await admin.request(
      "/api/admin/webhooks",
      json("POST", { url: receiver.url, events: ["purchase.checked", "upstream.unavailable"] }),
    );
    expect(endpoint.status, endpoint.text).toBe(201);
    receiver.secrets = [endpoint.json.data.secret];

    const token = await admin.request(
      "/api/tokens",
      json("POST", { name: "pg", scopes: ["purchases:validate"], expires_in_days: 7 }),
    );
    expect(token.status, token.text).toBe(201);
    const bearer = { "Content-Type": "application/json", Authorization: `Bearer ${token.json.data.secret}` };
    const check = await gateway.request("/api/purchases/validate", {
      method: "POST",
      headers: bearer,
      body: JSON.stringify({ purchase_code: FIXED_PURCHASE_CODES.active }),
    });
    expect(check.status, check.text).toBe(200);
    const [checked] = await receiver.until(1);
    expect(checked).toMatchObject({ status: 204, verifiedWith: 0 });
    expect(JSON.parse(checked!.body)).toMatchObject({
      type: "purchase.checked",
      data: { outcome: "valid", by: { via: "api_token" } },
    });

    expect((await admin.request(`/api/tokens/${token.json.data.id}`, { method: "DELETE" })).status).toBe(200);
    const refused = await gateway.request("/api/purchases/validate", {
      method: "POST",
      headers: bearer,
      body: JSON.stringify({ purchase_code: FIXED_PURCHASE_CODES.active }),
    });
    expect([refused.status, refused.json.error.code]).toEqual([401, "token_revoked"]);

    await sandbox.injectFault({ path: "/market/*", kind: "status", status: 500 });
    for (let i = 0; i < 2; i++)
      await admin.request("/api/purchases/validate", json("POST", { purchase_code: FIXED_PURCHASE_CODES.active }));
    const [, opened] = await receiver.until(2);
    expect(JSON.parse(opened!.body)).toMatchObject({ type: "upstream.unavailable", data: { area: "items" } });
    await sandbox.clearFaults();
    // Two deliveries and the retried failures that open the breaker: more than 20 s on a loaded machine.
  }, 60_000);
});
