// POST /api/helpdesk/lookup over real HTTP (next start ↔ sandbox), with a support person's token holding only
// purchases:check, as a helpdesk's app sends it: the codes of realistic ticket texts found (quoted replies,
// signatures, HTML mail turned to text, two codes, an almost-code), each distinct code asked once, the ticket kept
// in the history (read back by ticket), never a whole code in the answer; the scope's edges; bad bodies; the
// purchase-check limit counting each code.
import { describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES as CODES } from "@/lib/sandbox";

import type { SignedInClient } from "@/tests/support/gateway";
import type { TestSandbox } from "@/tests/support/sandbox";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const VALIDATION_PATH = "/market/api/purchases/validation";
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** A token of `client`'s with these scopes. */
async function tokenOf(client: SignedInClient, scopes: string[]): Promise<string> {
  const res = await client.request(
    "/api/tokens",
    json({ name: `helpdesk ${scopes.join(" ")}`, scopes, expires_in_days: 7 }),
  );
  expect(res.status, res.text).toBe(201);
  return res.json.data.secret;
}

/** The codes the sandbox was asked to validate, in order. */
async function askedCodes(sandbox: TestSandbox): Promise<string[]> {
  return (await sandbox.requests())
    .filter((request) => request.path === VALIDATION_PATH)
    .map((request) => String(request.form?.purchase_code));
}

/** A Zendesk thread: the buyer's mail, a quoted reply repeating a code, a signature, an almost-code. */
const THREAD = `Subject: Licence for ACME theme {${CODES.letters.toUpperCase()}}

Hi there,
my purchase code is ${CODES.active} — and my colleague bought one too: 1111111l-1111-4111-8111-111111111111?
(sorry, maybe I typed it wrong). Support is expired on ${CODES.expired}.

On Mon, 23 Nov 2026, Support <help@acme.test> wrote:
> Please send your purchase code (${CODES.active}).
> Thanks

--
Jane Doe · ACME Ltd · +44 20 7946 0958 · VAT GB123 4567 89`;

describe("a support person's helpdesk token (purchases:check only)", () => {
  const {
    sandbox,
    gateway,
    client: support,
  } = setUpGateway({
    signIn: "support",
    // The item cache on (the harness turns it off): a lookup may reuse an answer for its lifetime.
    env: {
      PURCHASE_RATE_LIMIT_PER_USER: "1000",
      PURCHASE_RATE_LIMIT_PER_IP: "1000",
      UPSTREAM_CACHE_ITEMS_TTL_MS: "60000",
    },
  });
  let token = "";
  const lookup = (body: unknown) =>
    gateway.request("/api/helpdesk/lookup", json(body, { Authorization: `Bearer ${token}` }));

  it("finds every code of a thread, checks each distinct one once, and names them by their last 4 only", async () => {
    token = await tokenOf(support, ["purchases:check"]);
    await sandbox.clearRequests();
    const ticket = { system: "zendesk", id: "4211", url: "https://acme.zendesk.com/agent/tickets/4211" };
    const res = await lookup({ text: THREAD, ticket });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.ticket).toEqual(ticket);
    expect(res.json.data.not_checked).toBe(0);
    // In the order they appear; the almost-code's correction is the active code, already found: checked once.
    expect(res.json.data.codes.map((c: { code_last4: string; outcome: string }) => [c.code_last4, c.outcome])).toEqual([
      ["7e6f", "valid"],
      ["1111", "valid"],
      ["2222", "valid"],
    ]);
    const [letters, active, expired] = res.json.data.codes;
    expect(letters).toMatchObject({ valid: true, support: "active", almost: null, message: null });
    expect(letters.purchase).toMatchObject({ license_type: expect.any(String), item: { id: expect.any(Number) } });
    expect(letters.purchase).not.toHaveProperty("purchase_code");
    expect(active.support).toBe("active");
    expect(expired.support).toBe("expired");
    expect((await askedCodes(sandbox)).sort()).toEqual([CODES.active, CODES.expired, CODES.letters].sort());
    for (const code of Object.values(CODES)) {
      expect(res.text.toLowerCase()).not.toContain(code);
      expect(res.text.toLowerCase()).not.toContain(code.replace(/-/g, ""));
    }
  });

  it("reports an almost-code with its slip, and the verdict of its certain correction", async () => {
    const res = await lookup({
      text: "Code: 1111111l-1111-4111-8111-111111111111 and 3333333-3333-4333-8333-333333333333",
      ticket: { system: "freshdesk", id: "77" },
    });
    expect(res.status, res.text).toBe(200);
    const [corrected, missing] = res.json.data.codes;
    expect(corrected).toMatchObject({
      code_last4: "1111",
      outcome: "valid",
      almost: { slip: "letter l at position 8 — did you mean 1?", corrected: true },
    });
    expect(missing).toMatchObject({
      outcome: "not_checked",
      valid: false,
      almost: { corrected: false },
      checked_at: null,
    });
    expect(missing.almost.slip).toContain("one character missing in the first group");
    expect(missing.message).toBe("It cannot be corrected with certainty: ask the buyer for the whole code again.");
  });

  it("reads HTML mail turned to text: no-break spaces, a zero-width space and an en dash inside a code", async () => {
    await sandbox.clearRequests();
    const res = await lookup({
      text: `Purchase\u00a0code:\u00a0${CODES.none.slice(0, 4)}\u200b${CODES.none.slice(4, 8)}\u2013${CODES.none.slice(9)}<br>Regards`,
      ticket: { system: "helpscout", id: "981" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.codes).toMatchObject([{ code_last4: "3333", outcome: "valid", support: "none" }]);
  });

  it("answers a ticket without a code with no codes, asking nothing", async () => {
    await sandbox.clearRequests();
    const res = await lookup({
      text: "Hello, the theme does not install. Ticket 123-456.",
      ticket: { system: "other", id: "x-1" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ codes: [], not_checked: 0 });
    expect(await askedCodes(sandbox)).toEqual([]);
  });

  it("checks a code invalid for the item service as not valid, and counts codes past ten as not checked", async () => {
    const unknown = Array.from({ length: 11 }, (_, i) => `aaaaaaaa-aaaa-4aaa-8aaa-${String(i).padStart(12, "0")}`);
    const res = await lookup({ text: unknown.join("\n"), ticket: { system: "other", id: "many" } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.codes).toHaveLength(10);
    expect(res.json.data.not_checked).toBe(1);
    expect(res.json.data.codes[0]).toMatchObject({ outcome: "invalid", valid: false, message: expect.any(String) });
  });

  it("asks the item service again only after its cache's lifetime: a ticket opened twice is asked once", async () => {
    await sandbox.clearRequests();
    const body = { text: `code ${CODES.expired}`, ticket: { system: "zendesk", id: "4212" } };
    expect((await lookup(body)).status).toBe(200);
    expect((await lookup(body)).status).toBe(200);
    expect(await askedCodes(sandbox)).toEqual([]); // asked by the first test, within the cache's 60 s
  });

  it("keeps a ticket opened again with the same verdict once: the history counts checks, not page views", async () => {
    const kept = await support.request("/api/purchases/history?ticket=zendesk:4212");
    expect(kept.json.meta.total).toBe(1);
    // The same code in another ticket is another check.
    expect((await lookup({ text: `code ${CODES.expired}`, ticket: { system: "zendesk", id: "4213" } })).status).toBe(
      200,
    );
    const again = await lookup({ text: `code ${CODES.expired}`, ticket: { system: "zendesk", id: "4212" } });
    expect(again.json.data.codes[0].history.previous_checks).toBeGreaterThanOrEqual(3);
    expect((await support.request("/api/purchases/history?ticket=zendesk:4212")).json.meta.total).toBe(1);
    expect((await support.request("/api/purchases/history?ticket=zendesk:4213")).json.meta.total).toBe(1);
  });

  it("keeps each check in the history with its ticket, read back by ticket", async () => {
    const res = await support.request("/api/purchases/history?ticket=zendesk:4211");
    expect(res.status, res.text).toBe(200);
    expect(res.json.meta.total).toBe(3);
    for (const row of res.json.data) {
      expect(row).toMatchObject({
        source: "helpdesk",
        ticket: { system: "zendesk", id: "4211", url: "https://acme.zendesk.com/agent/tickets/4211" },
        checked_by: { email: expect.stringContaining("support") },
      });
    }
    const csv = await support.request("/api/purchases/history.csv?ticket=zendesk:4211");
    expect(csv.text).toContain("zendesk:4211,https://acme.zendesk.com/agent/tickets/4211");
    const bad = await support.request("/api/purchases/history?ticket=4211");
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.ticket).toContain("like zendesk:4211");
  });

  it("lets the token check codes and nothing else: the history, bulk jobs and the checker refuse it", async () => {
    for (const [path, init] of [
      ["/api/purchases/history", {}],
      ["/api/purchases/bulk", json({ codes: [CODES.active] })],
      ["/api/purchases/validate", json({ purchase_code: CODES.active })],
    ] as const) {
      const res = await gateway.request(path, {
        ...init,
        headers: { ...(init as RequestInit).headers, Authorization: `Bearer ${token}` },
      });
      expect(res.status, path).toBe(403);
      expect(res.json.error.code).toBe("insufficient_scope");
    }
  });

  it("refuses a token without purchases:check (403), and a request with neither token nor session", async () => {
    const other = await tokenOf(support, ["purchases:validate", "items:read"]);
    const body = { text: CODES.active, ticket: { system: "zendesk", id: "1" } };
    const refused = await gateway.request("/api/helpdesk/lookup", json(body, { Authorization: `Bearer ${other}` }));
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: "insufficient_scope", fields: { scope: "purchases:check" } });
    // With X-CSRF, as a script sends it: what is refused is the missing token, not the missing header.
    const anonymous = await gateway.request("/api/helpdesk/lookup", json(body, { "X-CSRF": "1" }));
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe("unauthenticated");
  });

  it.each<[string, unknown, string, string]>([
    ["no ticket", { text: "x" }, "ticket", "is required"],
    [
      "an unknown helpdesk",
      { text: "x", ticket: { system: "jira", id: "1" } },
      "ticket.system",
      "zendesk, freshdesk, helpscout, other",
    ],
    ["a ticket id with spaces", { text: "x", ticket: { system: "zendesk", id: "1 2" } }, "ticket.id", "without spaces"],
    [
      "a ticket URL that is not http(s)",
      { text: "x", ticket: { system: "zendesk", id: "1", url: "javascript:alert(1)" } },
      "ticket.url",
      "https://",
    ],
    [
      "a text too long",
      { text: "x".repeat(100_001), ticket: { system: "zendesk", id: "1" } },
      "text",
      "at most 100000",
    ],
  ])("refuses %s with 400 and a sentence for the field", async (_what, body, field, words) => {
    const res = await lookup(body);
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.fields[field]).toContain(words);
  });
});

describe("the purchase-check limit", () => {
  const { gateway, client: support } = setUpGateway({
    signIn: "support",
    env: { PURCHASE_RATE_LIMIT_PER_USER: "4", PURCHASE_RATE_LIMIT_PER_IP: "1000" },
  });

  it("counts each code a lookup asks about, and refuses a lookup that would pass it (429 with Retry-After)", async () => {
    const token = await tokenOf(support, ["purchases:check"]);
    const send = (text: string) =>
      gateway.request(
        "/api/helpdesk/lookup",
        json({ text, ticket: { system: "zendesk", id: "9" } }, { Authorization: `Bearer ${token}` }),
      );
    expect((await send(`${CODES.active} ${CODES.expired} ${CODES.none}`)).status).toBe(200);
    const refused = await send(`${CODES.active} ${CODES.letters}`);
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toContain("4 purchase checks a minute per user");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // No code, no check: a ticket without codes still answers.
    expect((await send("no code here")).status).toBe(200);
  });
});
