// POST /api/helpdesk/helpscout over real HTTP (next start ↔ sandbox), as Help Scout's dynamic app sends it: the
// conversation signed with the secret an admin made (X-HelpScout-Signature, base64 of HMAC-SHA1 over the raw
// body). Signed right: the card with the verdicts of the subject's codes, the checks made for the conversation
// before and the link to the checker with it attached; the checks kept in the history with the conversation. Not
// configured, signed wrong, unsigned, or a signature replayed over another body: 401. A hostile item name is escaped.
// And the checker opened from the card (its validate body with the ticket) keeps the ticket too.
import { createHmac } from "node:crypto";

import { beforeAll, describe, expect, it } from "vitest";

import { hashPurchaseCode } from "@/lib/auth/audit";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb } from "@/lib/db";
import { activate, resetActivation } from "@/lib/licences/activations";
import { FIXED_PURCHASE_CODES as CODES } from "@/lib/sandbox";

import { CANARY } from "@/tests/support/canary";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const VALIDATION_PATH = "/market/api/purchases/validation";
const HOSTILE = `<img src=x onerror=alert(1)>"'`;
const HASH_KEY = "helpscout-http-test-hash-key-0123456789";

const {
  sandbox,
  gateway,
  clients: { admin, support },
} = setUpGateway({
  signIn: ["admin", "support"],
  env: { PURCHASE_RATE_LIMIT_PER_USER: "1000", PURCHASE_RATE_LIMIT_PER_IP: "1000", PURCHASE_CODE_HASH_KEY: HASH_KEY },
});

const sign = (body: string, secret: string) => createHmac("sha1", secret).update(body, "utf8").digest("base64");

/** Help Scout's request for a conversation, as its documentation shows it. */
function conversation(id: number, subject: string, email = "agent@acme.test") {
  return {
    ticket: { id, number: id + 1000, subject },
    customer: { id: 7, fname: "Jane", lname: "Doe", email: "jane@buyer.test", emails: ["jane@buyer.test"] },
    user: { fname: "Sam", lname: "Agent", id: 42, role: "user", convRedirect: 0, email },
    mailbox: { id: 3, email: "help@acme.test" },
  };
}

/** Posts `body` (text, as Help Scout sends it) with a signature header, or none. */
const helpScout = (body: string, signature: string | null) =>
  gateway.request("/api/helpdesk/helpscout", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(signature === null ? {} : { "X-HelpScout-Signature": signature }),
    },
    body,
  });

let secret = "";

describe("before an admin makes the secret", () => {
  it("refuses every request with 401 and says where the secret is made", async () => {
    const body = JSON.stringify(conversation(1, `Code ${CODES.active}`));
    const res = await helpScout(body, sign(body, "anything"));
    expect(res.status, res.text).toBe(401);
    expect(res.json.error.code).toBe("unauthenticated");
    expect(res.json.error.message).toContain("an admin makes it on Admin → Helpdesk");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("with the secret set", () => {
  beforeAll(async () => {
    const res = await admin.request("/api/admin/helpdesk/helpscout-secret", {
      method: "POST",
      headers: { "X-CSRF": "1" },
    });
    expect(res.status, res.text).toBe(201);
    secret = res.json.data.secret;
    expect(secret.length).toBeLessThanOrEqual(40);
  });

  it("answers a request signed right with the card: each code's verdict, by its last 4, and the link", async () => {
    await sandbox.clearRequests();
    const body = JSON.stringify(conversation(5001, `Licence {${CODES.active}} and ${CODES.expired}`));
    const res = await helpScout(body, sign(body, secret));
    expect(res.status, res.text).toBe(200);
    const html: string = res.json.html;
    expect(html).toContain('Code …1111 <strong class="green">Valid</strong>');
    expect(html).toContain('Code …2222 <strong class="green">Valid</strong>');
    expect(html).toContain("Support expired on");
    expect(html).toContain(`href="${gateway.url}/purchases?ticket=helpscout%3A5001">Open in Gatehouse</a>`);
    expect(html).toContain("Checked before for this conversation");
    for (const code of Object.values(CODES)) expect(res.text).not.toContain(code);
    expect(
      (await sandbox.requests())
        .filter((request) => request.path === VALIDATION_PATH)
        .map((r) => r.form?.purchase_code),
    ).toEqual(expect.arrayContaining([CODES.active, CODES.expired]));
  });

  it("keeps the checks in the history with the conversation, and lists them on the card the next time", async () => {
    const history = await support.request("/api/purchases/history?ticket=helpscout:5001");
    expect(history.status, history.text).toBe(200);
    expect(history.json.data).toHaveLength(2);
    for (const row of history.json.data) {
      expect(row).toMatchObject({
        source: "helpdesk",
        ticket: { system: "helpscout", id: "5001", url: "https://secure.helpscout.net/conversation/5001" },
        checked_by: { id: null, email: "agent@acme.test" },
      });
    }

    const body = JSON.stringify(conversation(5001, "Re: thanks"));
    const res = await helpScout(body, sign(body, secret));
    expect(res.status, res.text).toBe(200);
    const html: string = res.json.html;
    expect(html).toContain("No purchase code in this conversation&#39;s subject.");
    const earlier = html.slice(html.indexOf("Checked before for this conversation"));
    expect(earlier).toContain("Code …1111");
    expect(earlier).toContain("Code …2222");
    expect(earlier).toContain("by agent@acme.test");
    expect(html).toContain("Open in Gatehouse");
  });

  it("names a valid code's active licence activations (at most 5, and how many more), never a deactivated one", async () => {
    const store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
    try {
      const licence = { codeHash: hashPurchaseCode(CODES.none, HASH_KEY), itemId: 100001, codeLast4: "3333" };
      const ids: string[] = [];
      for (let n = 1; n <= 7; n += 1) {
        const made = await activate(
          store.db,
          licence,
          { kind: "domain", value: `site${n}.example.com`, name: null },
          { counted: true, allowed: 10, at: new Date(Date.UTC(2026, 10, n)) },
        );
        if (made.kind !== "limit") ids.push(made.activation.id);
      }
      await resetActivation(store.db, ids[0]!, { by: "support@gatehouse.test", reason: "moved", at: new Date() });
    } finally {
      await store.close();
    }
    const body = JSON.stringify(conversation(5003, `My code ${CODES.none}, and ${CODES.expired}`));
    const res = await helpScout(body, sign(body, secret));
    expect(res.status, res.text).toBe(200);
    const html: string = res.json.html;
    expect(html).toContain("Active on 6 sites: site7.example.com (last seen 7 Nov 2026), site6.example.com");
    expect(html).toContain("site3.example.com (last seen 3 Nov 2026) and 1 more");
    expect(html).not.toContain("site1.example.com");
    expect(html.slice(html.indexOf("Code …2222"))).not.toContain("Active on");
    expect(html).not.toContain(CODES.none);
  });

  it("refuses a wrong signature, a missing one, and a signature replayed over another body: 401", async () => {
    const body = JSON.stringify(conversation(5002, `Code ${CODES.active}`));
    const wrong = await helpScout(body, sign(body, `${secret}x`));
    expect(wrong.status, wrong.text).toBe(401);
    expect(wrong.json.error.message).toContain("X-HelpScout-Signature is missing or does not match");

    expect((await helpScout(body, null)).status).toBe(401);
    expect((await helpScout(body, "")).status).toBe(401);
    expect((await helpScout(body, "not base64 at all!")).status).toBe(401);

    const other = JSON.stringify(conversation(5003, `Code ${CODES.none}`));
    const replayed = await helpScout(other, sign(body, secret));
    expect(replayed.status, replayed.text).toBe(401);
    // The same JSON with one byte more (a space) is another body: its signature is another.
    expect((await helpScout(`${body} `, sign(body, secret))).status).toBe(401);

    const history = await support.request("/api/purchases/history?ticket=helpscout:5002");
    expect(history.json.data).toEqual([]);
  });

  it("refuses a body signed right that is not Help Scout's shape with 400, and answers a draft", async () => {
    const bad = JSON.stringify({ ticket: { id: "not a number", subject: "x" } });
    const res = await helpScout(bad, sign(bad, secret));
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe("invalid_input");

    const notJson = "ticket=1";
    expect((await helpScout(notJson, sign(notJson, secret))).status).toBe(400);

    const draft = JSON.stringify({ ticket: false, user: { id: 42 } });
    const answer = await helpScout(draft, sign(draft, secret));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.html).toContain("a draft has nothing to check yet");
  });

  it("escapes a hostile item name and hostile text from the subject", async () => {
    const direct = await fetch(`${sandbox.itemsBaseUrl}/api/purchases/validation`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ api_key: CANARY.items, purchase_code: CODES.letters }).toString(),
    });
    const hostile = (await direct.json()) as { data: { purchase: { item: { name: string } } } };
    hostile.data.purchase.item.name = HOSTILE;
    await sandbox.injectFault({
      method: "POST",
      path: VALIDATION_PATH,
      kind: "status",
      status: 200,
      body: hostile,
      times: 1,
    });
    const body = JSON.stringify(conversation(5004, `<script>alert(2)</script> ${CODES.letters}`));
    const res = await helpScout(body, sign(body, secret));
    expect(res.status, res.text).toBe(200);
    const html: string = res.json.html;
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).not.toMatch(/onerror=alert\(1\)>/);
  });

  it("counts each code against the purchase-check limits of Help Scout's one caller", async () => {
    const body = JSON.stringify(conversation(5005, `${CODES.active} ${CODES.none}`));
    const res = await helpScout(body, sign(body, secret));
    expect(res.status, res.text).toBe(200);
    const audit = await admin.request("/api/admin/audit?action=purchase.helpdesk_lookup&per_page=10");
    expect(audit.json.data[0]).toMatchObject({
      action: "purchase.helpdesk_lookup",
      user_id: null,
      user_email: "agent@acme.test",
      detail: { ticket: "helpscout:5005", codes: 2, via: "helpscout" },
    });
  });
});

describe("the checker opened from the card", () => {
  it("keeps the ticket with the check it makes (source single)", async () => {
    const ticket = { system: "helpscout", id: "5001", url: "https://secure.helpscout.net/conversation/5001" };
    const res = await support.request("/api/purchases/validate", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1" },
      body: JSON.stringify({ purchase_code: CODES.none, ticket }),
    });
    expect(res.status, res.text).toBe(200);
    const history = await support.request("/api/purchases/history?ticket=helpscout:5001&per_page=10");
    expect(history.json.data[0]).toMatchObject({ source: "single", code_last4: "3333", ticket });

    const refused = await support.request("/api/purchases/validate", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1" },
      body: JSON.stringify({
        purchase_code: CODES.none,
        ticket: { system: "helpscout", id: "1", url: "javascript:alert(1)" },
      }),
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.fields).toHaveProperty(["ticket.url"]);
  });
});

describe("Help Scout's own limit", () => {
  // A portal of its own, whose purchase-check limit is 3 a minute: Help Scout is one caller, counted per code.
  const limited = setUpGateway({
    signIn: "admin",
    env: { PURCHASE_RATE_LIMIT_PER_USER: "3", PURCHASE_RATE_LIMIT_PER_IP: "1000" },
  });

  it("counts each code of the subject, and refuses the codes past the limit with 429 before asking the item API", async () => {
    const made = await limited.client.request("/api/admin/helpdesk/helpscout-secret", { method: "POST" });
    expect(made.status, made.text).toBe(201);
    const key: string = made.json.data.secret;
    const send = (body: string) =>
      limited.gateway.request("/api/helpdesk/helpscout", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-HelpScout-Signature": sign(body, key) },
        body,
      });
    const two = JSON.stringify(conversation(6001, `${CODES.active} ${CODES.expired}`));
    expect((await send(two)).status).toBe(200);
    await limited.sandbox.clearRequests();
    const refused = await send(JSON.stringify(conversation(6002, `${CODES.none} ${CODES.letters}`)));
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await limited.sandbox.requests()).filter((request) => request.path === VALIDATION_PATH)).toEqual([]);
    // A subject without codes asks nothing, and is answered.
    expect((await send(JSON.stringify(conversation(6003, "Hello")))).status).toBe(200);
  });
});
