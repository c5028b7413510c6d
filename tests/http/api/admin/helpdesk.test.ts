// Admin → Helpdesk's API over real HTTP against the production build: Help Scout's secret is made on the server
// and answered once (never in GET, never in the audit log), kept sealed (the database files hold it in no form),
// rotated (the old one's signatures refused at once) and removed; only an admin's session may do any of it; and
// each helpdesk's last lookups are listed.
import { createHmac } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES as CODES } from "@/lib/sandbox";

import { keyEncodings } from "@/tests/support/canary";
import { setUpGateway } from "@/tests/support/set-up-gateway";

let storeDir: string;
// Registered first, so run last: once the portal has stopped.
afterAll(async () => {
  if (storeDir) await rm(storeDir, { recursive: true, force: true });
});
const {
  gateway,
  clients: { admin, support },
} = setUpGateway({
  signIn: ["admin", "support"],
  // A store in a folder of its own: the test reads its files.
  env: async () => {
    storeDir = await mkdtemp(path.join(tmpdir(), "gatehouse-helpdesk-"));
    return { DATABASE_URL: path.join(storeDir, "gatehouse.db") };
  },
});

const SECRET_PATH = "/api/admin/helpdesk/helpscout-secret";
const sign = (body: string, secret: string) => createHmac("sha1", secret).update(body, "utf8").digest("base64");
const card = (body: string, secret: string) =>
  gateway.request("/api/helpdesk/helpscout", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-HelpScout-Signature": sign(body, secret) },
    body,
  });
const CONVERSATION = JSON.stringify({ ticket: { id: 88, number: 1088, subject: `Code ${CODES.active}` } });

let first = "";

describe("Help Scout's secret", () => {
  it("starts unset, with the Callback URL to give Help Scout", async () => {
    const res = await admin.request("/api/admin/helpdesk");
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.helpscout).toEqual({
      set: false,
      set_at: null,
      set_by: null,
      callback_url: `${gateway.url}/api/helpdesk/helpscout`,
    });
    expect(res.json.data.last_lookups).toEqual({ zendesk: [], freshdesk: [], helpscout: [], other: [] });
  });

  it("is made on the server and shown once: never in GET, never in the audit log", async () => {
    const res = await admin.request(SECRET_PATH, { method: "POST" });
    expect(res.status, res.text).toBe(201);
    first = res.json.data.secret;
    expect(first).toMatch(/^[A-Za-z0-9_-]{40}$/);
    expect(res.json.data).toMatchObject({ set: true, set_by: "admin@gatehouse.test", rotated: false });

    const again = await admin.request("/api/admin/helpdesk");
    expect(again.json.data.helpscout).toMatchObject({ set: true, set_by: "admin@gatehouse.test" });
    expect(again.text).not.toContain(first);

    const audit = await admin.request("/api/admin/audit?action=helpdesk.secret_set&per_page=10");
    expect(audit.status, audit.text).toBe(200);
    expect(audit.json.data[0]).toMatchObject({
      action: "helpdesk.secret_set",
      outcome: "success",
      detail: { helpdesk: "helpscout", rotated: false },
      summary: "Made Help Scout's secret.",
    });
    expect(audit.text).not.toContain(first);

    expect((await card(CONVERSATION, first)).status).toBe(200);
  });

  it("is sealed at rest: the database files hold it in no form", async () => {
    const files = (await readdir(storeDir)).filter((name) => name.startsWith("gatehouse.db"));
    expect(files).toContain("gatehouse.db");
    for (const file of files) {
      const bytes = await readFile(path.join(storeDir, file));
      const latin1 = bytes.toString("latin1");
      const { anyCase, exact } = keyEncodings(first);
      for (const needle of anyCase)
        expect(latin1.toLowerCase().includes(needle.toLowerCase()), `${file} holds it as ${needle}`).toBe(false);
      for (const needle of exact) expect(latin1.includes(needle), `${file} holds it as ${needle}`).toBe(false);
      expect(bytes.includes(Buffer.from(first, "utf16le")), `${file} holds it in UTF-16`).toBe(false);
    }
  });

  it("is rotated: the new one signs, the old one's signatures are refused at once", async () => {
    const res = await admin.request(SECRET_PATH, { method: "POST" });
    expect(res.status, res.text).toBe(201);
    const next: string = res.json.data.secret;
    expect(next).not.toBe(first);
    expect(res.json.data.rotated).toBe(true);

    expect((await card(CONVERSATION, first)).status).toBe(401);
    expect((await card(CONVERSATION, next)).status).toBe(200);
    const audit = await admin.request("/api/admin/audit?action=helpdesk.secret_set&per_page=10");
    expect(audit.json.data[0]).toMatchObject({ detail: { helpdesk: "helpscout", rotated: true } });
  });

  it("lists Help Scout's last lookups, newest first, with their conversation", async () => {
    const res = await admin.request("/api/admin/helpdesk");
    const rows = res.json.data.last_lookups.helpscout;
    // The conversation was opened twice, with the same verdict within 15 minutes: one check, kept once.
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      code_last4: "1111",
      outcome: "valid",
      source: "helpdesk",
      ticket: { system: "helpscout", id: "88", url: "https://secure.helpscout.net/conversation/88" },
    });
    expect(res.json.data.last_lookups.zendesk).toEqual([]);
  });

  it("is removed: Help Scout's requests are refused until a new one is made; removing twice is a 404", async () => {
    const res = await admin.request(SECRET_PATH, { method: "DELETE" });
    expect(res.status, res.text).toBe(204);
    const refused = await card(CONVERSATION, first);
    expect(refused.status).toBe(401);
    expect(refused.json.error.message).toContain("Admin → Helpdesk");
    expect((await admin.request("/api/admin/helpdesk")).json.data.helpscout.set).toBe(false);
    expect((await admin.request(SECRET_PATH, { method: "DELETE" })).status).toBe(404);
    const audit = await admin.request("/api/admin/audit?action=helpdesk.secret_removed&per_page=10");
    // Newest first: the second removal's refusal, then the removal.
    expect(audit.json.data.map((row: { outcome: string }) => row.outcome)).toEqual(["failure", "success"]);
    expect(audit.json.data[1]).toMatchObject({
      summary: "Removed Help Scout's secret: its requests are refused until a new one is made.",
    });
  });
});

describe("who may", () => {
  it("refuses anyone but an admin, and any API token (a session only)", async () => {
    expect((await support.request("/api/admin/helpdesk")).status).toBe(403);
    expect((await support.request(SECRET_PATH, { method: "POST" })).status).toBe(403);
    expect((await support.request(SECRET_PATH, { method: "DELETE" })).status).toBe(403);
    expect((await gateway.request("/api/admin/helpdesk")).status).toBe(401);

    const made = await admin.request("/api/tokens", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "admin script", scopes: ["audit:read"], expires_in_days: 7 }),
    });
    expect(made.status, made.text).toBe(201);
    const bearer = { Authorization: `Bearer ${made.json.data.secret}` };
    const read = await gateway.request("/api/admin/helpdesk", { headers: bearer });
    expect(read.status, read.text).toBe(403);
    expect(read.json.error.code).toBe("insufficient_scope");
  });

  it("lists a Zendesk token's lookups under Zendesk", async () => {
    const made = await support.request("/api/tokens", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Zendesk sidebar", scopes: ["purchases:check"], expires_in_days: 365 }),
    });
    expect(made.status, made.text).toBe(201);
    const lookup = await gateway.request("/api/helpdesk/lookup", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${made.json.data.secret}` },
      body: JSON.stringify({ text: `Code ${CODES.expired}`, ticket: { system: "zendesk", id: "4211" } }),
    });
    expect(lookup.status, lookup.text).toBe(200);
    const res = await admin.request("/api/admin/helpdesk");
    expect(res.json.data.last_lookups.zendesk[0]).toMatchObject({
      code_last4: "2222",
      source: "helpdesk",
      checked_by: { email: "support@gatehouse.test" },
      ticket: { system: "zendesk", id: "4211", url: null },
    });
  });
});
