// The purchase history over real HTTP (next start ↔ sandbox, real SQLite): validate records every check and
// says what the history knew, a refused code costs no upstream call and no row, the history's filters, pages,
// search by full code and CSV export, who may see it, and that no full code reaches a history answer or a log.
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { parseDatabaseUrl } from "@/lib/config/store";
import {
  PurchaseCheckSchema,
  PurchaseHistoryEntrySchema,
  PurchaseSchema,
  type Purchase,
} from "@/lib/contract/purchases";
import { openDb, type Store } from "@/lib/db";
import { NO_LIFECYCLE } from "@/lib/contract/purchase-lifecycle";
import { recordPurchaseCheck, type PurchaseCheckRecordInput } from "@/lib/purchases/history";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import type { GatewayResponse, SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

import { parseCsv } from "@/tests/support/csv";

const HASH_KEY = "history-http-test-hash-key-0123456789";
const VALIDATION_PATH = "/market/api/purchases/validation";
/** Codes the sandbox does not know: answered "Invalid purchase code". */
const UNKNOWN = "44444444-4444-4444-8444-44444444d004";
const UNKNOWN_2 = "55555555-5555-4555-8555-55555555e005";
/** Codes only seeded straight into the store (never sent upstream), for the filter tests. */
const SEED_A = "seeded00-aaaa-4aaa-8aaa-aaaaaaaa5eda";
const SEED_B = "seeded00-bbbb-4bbb-8bbb-bbbbbbbb5edb";
/** The seeded checks lie in these three days of 2024; the checks made through validate are today. */
const SEEDED = "from=2024-05-01&to=2024-05-03";

const {
  sandbox,
  gateway,
  clients: { support, editor, viewer, admin },
} = setUpGateway({
  signIn: ["support", "editor", "viewer", "admin"],
  env: { PURCHASE_CODE_HASH_KEY: HASH_KEY, PURCHASE_RATE_LIMIT_PER_USER: "10000", PURCHASE_RATE_LIMIT_PER_IP: "10000" },
});
/** The gateway's own store, opened beside it to seed checks of past days. */
let store: Store;

beforeAll(async () => {
  store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
  await seedPastChecks();
});
afterAll(async () => {
  await store?.close();
});
beforeEach(async () => {
  await sandbox.clearRequests();
  await sandbox.clearFaults();
});

const jsonPost = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});
const validate = (client: SignedInClient, code: string) =>
  client.request("/api/purchases/validate", jsonPost({ purchase_code: code }));
const history = (client: SignedInClient, query: string) => client.request(`/api/purchases/history?${query}`);
/** The search by full code: the code in a POST body, never in a URL. */
const search = (client: SignedInClient, body: Record<string, unknown>) =>
  client.request("/api/purchases/history/search", jsonPost(body));
const searchCsv = (client: SignedInClient, body: Record<string, unknown>) =>
  client.request("/api/purchases/history/search.csv", jsonPost(body));
/** The seeded days as a search body's filters. */
const SEEDED_BODY = { from: "2024-05-01", to: "2024-05-03" };

/** Every check of a code (the search by full code), newest first. */
async function checksOf(code: string) {
  const res = await search(admin, { code, per_page: 100 });
  expect(res.status, res.text).toBe(200);
  return res.json.data.map((entry: unknown) => PurchaseHistoryEntrySchema.parse(entry));
}

async function historyTotal(): Promise<number> {
  return (await history(admin, "per_page=10")).json.meta.total;
}

function expectFieldError(res: GatewayResponse, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.json.error.code).toBe("invalid_input");
  expect(Object.keys(res.json.error.fields)).toEqual([field]);
}

// ---------------------------------------------------------------------------------------------------------
// Seeded history: 14 checks over 2024-05-01..03, two people, two codes, three outcomes, and item text that a
// spreadsheet would run as a formula.

const SEEDER_1 = { id: "seed-user-1", email: "Seeder.One@Example.com" };
const SEEDER_2 = { id: "seed-user-2", email: "seeder.two@example.com" };
const seededPurchase = (itemId: number, name: string, licence = "Regular License"): Purchase => ({
  purchase_code: SEED_A,
  license_type: licence,
  price: 20,
  currency: "USD",
  item: { id: itemId, name, url: null, media: {} },
  supported_until: "2025-05-01T00:00:00.000Z",
  downloaded: false,
  date: "2024-01-01T00:00:00.000Z",
});

async function seedPastChecks() {
  const checks: PurchaseCheckRecordInput[] = [
    {
      at: new Date("2024-05-01T00:00:00.000Z"),
      user: SEEDER_1,
      code: SEED_A,
      outcome: "valid",
      reason: null,
      purchase: seededPurchase(9001, "Seed Theme"),
      source: "single",
    },
    {
      at: new Date("2024-05-01T23:59:59.999Z"),
      user: SEEDER_2,
      code: SEED_B,
      outcome: "invalid",
      reason: "Invalid purchase code",
      source: "single",
    },
    {
      at: new Date("2024-05-02T08:00:00.000Z"),
      user: SEEDER_2,
      code: SEED_A,
      outcome: "valid",
      reason: null,
      purchase: seededPurchase(9002, '=HYPERLINK("http://evil.example","open")', 'Extended, "multi-site"'),
      source: "bulk",
      bulkJobId: "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b",
    },
    {
      at: new Date("2024-05-03T12:00:00.000Z"),
      user: SEEDER_1,
      code: SEED_B,
      outcome: "failed",
      reason: "The item service did not answer in time; try again later.",
      source: "single",
    },
  ];
  // Ten more on the 2nd, to page through.
  for (let i = 0; i < 10; i++) {
    checks.push({
      at: new Date(`2024-05-02T10:00:0${i}.000Z`),
      user: SEEDER_1,
      code: SEED_B,
      outcome: "invalid",
      reason: `Invalid purchase code ${i}`,
      source: "single",
    });
  }
  for (const check of checks) await recordPurchaseCheck(store.db, HASH_KEY, check);
}

// ---------------------------------------------------------------------------------------------------------

describe("POST /api/purchases/validate records every check", () => {
  it("a valid code: the answer carries the code as checked, no notes, an empty history; the row keeps the purchase's facts", async () => {
    const res = await validate(support, FIXED_PURCHASE_CODES.active);
    expect(res.status, res.text).toBe(200);
    const answer = PurchaseCheckSchema.parse(res.json.data);
    expect(answer).toMatchObject({
      valid: true,
      checked_code: FIXED_PURCHASE_CODES.active,
      notes: [],
      history: { previous_checks: 0, first_checked_at: null, first_checked_by: null },
    });
    const purchase = PurchaseSchema.parse(res.json.data.purchase);

    const [row, ...others] = await checksOf(FIXED_PURCHASE_CODES.active);
    expect(others).toEqual([]);
    expect(row).toEqual({
      id: expect.any(Number),
      checked_at: expect.any(String),
      code_last4: "1111",
      outcome: "valid",
      reason: null,
      item_id: purchase.item.id,
      item_name: purchase.item.name,
      license_type: purchase.license_type,
      supported_until: purchase.supported_until,
      support: "active",
      checked_by: { id: support.user.id, email: support.user.email },
      source: "single",
      bulk_job_id: null,
      ticket: null,
      shared_suspected: false,
    });
    expect(Math.abs(Date.parse(row.checked_at) - Date.now())).toBeLessThan(60_000);
  });

  it("says how often the code was checked before, by anyone, and when and by whom first", async () => {
    const code = FIXED_PURCHASE_CODES.expired;
    const first = await validate(support, code);
    expect(first.json.data.history.previous_checks).toBe(0);
    const [firstRow] = await checksOf(code);

    const second = await validate(editor, code);
    expect(second.json.data.history).toEqual({
      previous_checks: 1,
      first_checked_at: firstRow.checked_at,
      first_checked_by: "support@gatehouse.test",
    });
    const third = await validate(support, code);
    expect(third.json.data.history).toEqual({
      previous_checks: 2,
      first_checked_at: firstRow.checked_at,
      first_checked_by: "support@gatehouse.test",
    });

    const rows = await checksOf(code);
    expect(rows.map((r: { checked_by: { email: string } }) => r.checked_by.email)).toEqual([
      "support@gatehouse.test",
      "editor@gatehouse.test",
      "support@gatehouse.test",
    ]);
  });

  it("a valid code without support: the row has no support end", async () => {
    await validate(support, FIXED_PURCHASE_CODES.none);
    const [row] = await checksOf(FIXED_PURCHASE_CODES.none);
    expect(row).toMatchObject({
      outcome: "valid",
      supported_until: null,
      license_type: expect.any(String),
      item_id: expect.any(Number),
    });
  });

  it("an invalid code: the upstream's message in the answer and in the row, no purchase facts", async () => {
    const res = await validate(support, UNKNOWN);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: {
        valid: false,
        message: "Invalid purchase code",
        checked_code: UNKNOWN,
        notes: [],
        history: { previous_checks: 0, first_checked_at: null, first_checked_by: null },
        suggestion: null,
        stale: false,
        lifecycle: NO_LIFECYCLE,
      },
    });
    const [row] = await checksOf(UNKNOWN);
    expect(row).toMatchObject({
      outcome: "invalid",
      reason: "Invalid purchase code",
      item_id: null,
      item_name: null,
      license_type: null,
      supported_until: null,
      code_last4: "d004",
    });
  });

  it.each([
    ["503", { kind: "status", status: 503, body: { status: "error", msg: "Server Error" } }, 502, "upstream_error"],
    [
      "429",
      { kind: "status", status: 429, headers: { "Retry-After": "7" }, body: "slow down" },
      429,
      "upstream_rate_limited",
    ],
    ["reset", { kind: "reset" }, 502, "upstream_unreachable"],
  ] as const)(
    "a failed check (upstream %s) is answered as an error and recorded as failed, with a reason a person can read",
    async (_name, fault, status, code) => {
      const checkCode = `66666666-6666-4666-8666-6666666${fault.kind === "status" ? fault.status : "000"}f`;
      await sandbox.injectFault({ ...fault, method: "POST", path: VALIDATION_PATH, times: 1 });
      const res = await validate(support, checkCode);
      expect(res.status, res.text).toBe(status);
      expect(res.json.error.code).toBe(code);

      const [row] = await checksOf(checkCode);
      expect(row).toMatchObject({ outcome: "failed", item_id: null, checked_by: { id: support.user.id } });
      // The same words as the answer: no URL, no path, no key, no stack.
      expect(row.reason).toBe(res.json.error.message);
      expect(row.reason).toMatch(/^The item API /);
      expect(row.reason).not.toMatch(/https?:\/\/|127\.0\.0\.1|\/market|purchases\.validate|api_key|\.ts:\d+/);
    },
  );

  it("a history write that fails does not fail the check: the answer comes, the row is logged at error level without the code", async () => {
    const code = "88888888-8888-4888-8888-88888888b008";
    // A real failure of the real store: SQLite itself refuses the insert.
    await sql`CREATE TRIGGER refuse_history BEFORE INSERT ON purchase_checks BEGIN SELECT RAISE(ABORT, 'history unavailable (test)'); END`.execute(
      store.db,
    );
    let res: GatewayResponse;
    try {
      res = await validate(support, code);
    } finally {
      await sql`DROP TRIGGER refuse_history`.execute(store.db);
    }
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ valid: false, message: "Invalid purchase code", checked_code: code });
    expect(await checksOf(code)).toEqual([]);

    const requestId = res.headers.get("x-request-id");
    await gateway.logLineFor(requestId ?? "");
    const line = gateway
      .logLines()
      .find((l) => l.msg === "purchase_history_write_failed" && l.request_id === requestId);
    expect(line).toMatchObject({
      level: "error",
      check: {
        code_last4: "b008",
        code_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        outcome: "invalid",
        reason: "Invalid purchase code",
        user: { id: support.user.id },
      },
      error: { message: expect.stringContaining("history unavailable (test)") },
    });
    expect(JSON.stringify(line)).not.toContain(code);
  });

  it("refuses a look-alike code with the reason in fields.purchase_code: no upstream call, no history row", async () => {
    const before = await historyTotal();
    const lookalike = `1111111\u0430-1111-4111-8111-111111111111`;
    const res = await validate(support, lookalike);
    expectFieldError(res, "purchase_code");
    expect(res.json.error.fields.purchase_code).toMatch(/^Character 8 is a Cyrillic .*'а'.*U\+0430.*'a'/);
    expect(await sandbox.requests()).toEqual([]);
    expect(await historyTotal()).toBe(before);
  });

  it("checks a code with a zero-width space as the clean code, says what was removed, and files it under the clean code", async () => {
    const code = "77777777-7777-4777-8777-77777777a007";
    const res = await validate(support, `${code.slice(0, 9)}\u200b${code.slice(9)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.checked_code).toBe(code);
    expect(res.json.data.notes).toHaveLength(1);
    expect(res.json.data.notes[0]).toMatch(/zero-width space.*U\+200B/);
    const requests = await sandbox.requests();
    expect(requests.map((r) => r.form?.purchase_code)).toEqual([code]);
    expect(await checksOf(code)).toHaveLength(1);
  });
});

describe("GET /api/purchases/history", () => {
  const seeded = async (extra: string) => {
    const res = await history(admin, `${SEEDED}&per_page=100${extra}`);
    expect(res.status, res.text).toBe(200);
    return res.json as {
      data: Array<Record<string, unknown> & { checked_at: string; reason: string | null }>;
      meta: Record<string, number>;
    };
  };

  it("reads a bare from/to as a day in time_zone: 1 May in Los Angeles is 07:00 UTC on the 1st to 07:00 on the 2nd", async () => {
    const times = async (query: string) =>
      (await history(admin, `${query}&per_page=100`)).json.data.map((r: { checked_at: string }) => r.checked_at);
    expect(await times("from=2024-05-01&to=2024-05-01")).toEqual([
      "2024-05-01T23:59:59.999Z",
      "2024-05-01T00:00:00.000Z",
    ]);
    expect(await times("from=2024-05-01&to=2024-05-01&time_zone=America%2FLos_Angeles")).toEqual([
      "2024-05-01T23:59:59.999Z",
    ]);
    expect((await history(admin, "from=2024-05-01&time_zone=Mars%2FOlympus")).status).toBe(400);
  });

  it("answers a page of checks, newest first, in the documented shape with pagination meta (25 by default)", async () => {
    const res = await history(admin, SEEDED);
    expect(res.status).toBe(200);
    expect(res.json.meta).toEqual({ page: 1, per_page: 25, total: 14, last_page: 1 });
    for (const entry of res.json.data) PurchaseHistoryEntrySchema.parse(entry);
    const times = res.json.data.map((r: { checked_at: string }) => r.checked_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(times[0]).toBe("2024-05-03T12:00:00.000Z");
  });

  it("pages: per_page 10 → two pages, the second holding the last 4", async () => {
    const page1 = await history(admin, `${SEEDED}&per_page=10`);
    expect(page1.json.meta).toEqual({ page: 1, per_page: 10, total: 14, last_page: 2 });
    const page2 = await history(admin, `${SEEDED}&per_page=10&page=2`);
    expect(page2.json.meta).toEqual({ page: 2, per_page: 10, total: 14, last_page: 2 });
    expect(page2.json.data).toHaveLength(4);
    const ids = [...page1.json.data, ...page2.json.data].map((r: { id: number }) => r.id);
    expect(new Set(ids).size).toBe(14);
    const past = await history(admin, `${SEEDED}&per_page=10&page=3`);
    expect(past.json).toEqual({ data: [], meta: { page: 3, per_page: 10, total: 14, last_page: 2 } });
  });

  it("filters by outcome", async () => {
    const { data } = await seeded("&outcome=failed");
    expect(data.map((r) => r.reason)).toEqual(["The item service did not answer in time; try again later."]);
    expect((await seeded("&outcome=valid")).meta.total).toBe(2);
    expect((await seeded("&outcome=invalid")).meta.total).toBe(11);
  });

  it("filters by item", async () => {
    const { data } = await seeded("&item_id=9001");
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ item_id: 9001, item_name: "Seed Theme" });
  });

  it("filters by user id, or by email in any case", async () => {
    expect((await seeded("&user=seed-user-2")).meta.total).toBe(2);
    expect((await seeded(`&user=${encodeURIComponent("SEEDER.TWO@example.COM")}`)).meta.total).toBe(2);
    expect((await seeded("&user=seeder.one%40example.com")).meta.total).toBe(12);
    expect((await seeded("&user=nobody%40example.com")).meta.total).toBe(0);
  });

  it("reads a bare date as the whole UTC day, and a date-time as that moment", async () => {
    const day1 = await history(admin, "from=2024-05-01&to=2024-05-01");
    expect(day1.json.data.map((r: { checked_at: string }) => r.checked_at)).toEqual([
      "2024-05-01T23:59:59.999Z",
      "2024-05-01T00:00:00.000Z",
    ]);
    expect((await history(admin, "from=2024-05-02&to=2024-05-02")).json.meta.total).toBe(11);
    expect(
      (await history(admin, `from=${encodeURIComponent("2024-05-03T14:00:00+02:00")}&to=2024-05-03`)).json.meta.total,
    ).toBe(1);
    expect((await history(admin, "from=2024-05-03T12:00:00.001Z&to=2024-05-03")).json.meta.total).toBe(0);
  });

  const searched = async (body: Record<string, unknown>) => {
    const res = await search(admin, { ...SEEDED_BODY, per_page: 100, ...body });
    expect(res.status, res.text).toBe(200);
    return res.json as { data: Array<{ code_last4: string }>; meta: { total: number } };
  };

  it("finds a full code through its hash (POST search), with invisible characters too; another code finds nothing", async () => {
    const plain = await searched({ code: SEED_A });
    expect(plain.meta.total).toBe(2);
    expect(plain.data.every((r) => r.code_last4 === "5eda")).toBe(true);
    const pasted = await searched({ code: `\ufeff ${SEED_A.slice(0, 4)}\u200b${SEED_A.slice(4)}\u2060 ` });
    expect(pasted.data).toEqual(plain.data);
    expect((await searched({ code: SEED_B })).meta.total).toBe(12);
    expect((await searched({ code: "seeded00-cccc-4ccc-8ccc-cccccccc5edc" })).meta.total).toBe(0);
    // Its last 4 alone is not the code.
    expect((await searched({ code: "5eda" })).meta.total).toBe(0);
    // Paged like the list.
    const first = await search(admin, { ...SEEDED_BODY, code: SEED_B, per_page: 10, page: 2 });
    expect(first.json.meta).toEqual({ page: 2, per_page: 10, total: 12, last_page: 2 });
    expect(first.json.data).toHaveLength(2);
  });

  it("combines filters", async () => {
    const { data } = await searched({ code: SEED_A, outcome: "valid", user: "seed-user-2", item_id: 9002 });
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      source: "bulk",
      bulk_job_id: "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b",
      license_type: 'Extended, "multi-site"',
    });
    expect((await searched({ code: SEED_A, outcome: "invalid" })).meta.total).toBe(0);
  });

  it("refuses a full code in the URL of the list or its CSV, saying where to send it, without calling anyone", async () => {
    for (const path of ["/api/purchases/history", "/api/purchases/history.csv"]) {
      const res = await admin.request(`${path}?code=${SEED_A}`);
      expectFieldError(res, "code");
      expect(res.json.error.fields.code).toBe(
        "code is not accepted in a URL, which proxies and browsers keep: send the code in the body of POST /api/purchases/history/search",
      );
      expect(res.text).not.toContain(SEED_A);
    }
  });

  it.each([
    ["per_page=7", "per_page"],
    ["per_page=1000", "per_page"],
    ["page=0", "page"],
    ["page=two", "page"],
    ["outcome=maybe", "outcome"],
    ["item_id=abc", "item_id"],
    ["from=yesterday", "from"],
    ["to=2024-13-01", "to"],
    ["from=2024-05-03&to=2024-05-01", "from"],
    ["sort=asc", "sort"],
    ["page=1&page=2", "page"],
  ])("%s → 400 naming %s", async (query, field) => {
    expectFieldError(await history(admin, query), field);
  });

  it.each([
    [{ code: "seeded00-aaaa-4\u0430aa-8aaa-aaaaaaaa5eda" }, "code"],
    [{ code: "seeded00\u0007aaaa" }, "code"],
    [{ code: "\u200b" }, "code"],
    [{}, "code"],
    [{ code: SEED_A, per_page: 7 }, "per_page"],
    [{ code: SEED_A, page: 0 }, "page"],
    [{ code: SEED_A, item_id: "9002" }, "item_id"],
    [{ code: SEED_A, sort: "asc" }, "sort"],
    [{ code: SEED_A, from: "2024-05-03", to: "2024-05-01" }, "from"],
  ])("POST search %j → 400 naming %s", async (body, field) => {
    expectFieldError(await search(admin, body), field);
  });

  it("says why a look-alike code cannot be searched for", async () => {
    const res = await search(admin, { code: "seeded00-aaaa-4\u0430aa-8aaa-aaaaaaaa5eda" });
    expect(res.json.error.fields.code).toMatch(/^Character 16 is a Cyrillic .*U\+0430/);
  });
});

describe("GET /api/purchases/history.csv", () => {
  it("downloads the filtered checks as CSV: content type, file name, BOM, header, the same rows as the JSON, all pages", async () => {
    const res = await admin.request(`/api/purchases/history.csv?${SEEDED}&per_page=10&page=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="purchase-history-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
    const raw = await (
      await fetch(`${gateway.url}/api/purchases/history.csv?${SEEDED}`, { headers: { Cookie: admin.cookie() } })
    ).arrayBuffer();
    expect([...new Uint8Array(raw.slice(0, 3))]).toEqual([0xef, 0xbb, 0xbf]);

    const [header, ...rows] = parseCsv(res.text.replace(/^\ufeff/, ""));
    expect(header).toEqual([
      "id",
      "checked_at",
      "code_last4",
      "outcome",
      "reason",
      "item_id",
      "item_name",
      "license_type",
      "supported_until",
      "support",
      "checked_by_id",
      "checked_by_email",
      "source",
      "bulk_job_id",
      "ticket",
      "ticket_url",
      "shared_suspected",
    ]);
    // page and per_page do not apply: all 14.
    const json = (await history(admin, `${SEEDED}&per_page=100`)).json.data;
    expect(rows).toHaveLength(14);
    const cell = (v: unknown) => (v === null ? "" : String(v));
    const guard = (v: unknown) => (typeof v === "string" && /^[=+\-@]/.test(v) ? `'${v}` : cell(v));
    expect(rows).toEqual(
      json.map((e: Record<string, unknown> & { checked_by: { id: string | null; email: string | null } }) => [
        cell(e.id),
        cell(e.checked_at),
        cell(e.code_last4),
        cell(e.outcome),
        cell(e.reason),
        cell(e.item_id),
        guard(e.item_name),
        cell(e.license_type),
        cell(e.supported_until),
        cell(e.support),
        cell(e.checked_by.id),
        cell(e.checked_by.email),
        cell(e.source),
        cell(e.bulk_job_id),
        "",
        "",
        e.shared_suspected ? "yes" : "no",
      ]),
    );
  });

  it("quotes cells with commas and quotes, and shows a formula-looking item name as text", async () => {
    const res = await admin.request(`/api/purchases/history.csv?${SEEDED}&item_id=9002`);
    const line = res.text.split("\r\n")[1] ?? "";
    expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""open"")"`);
    expect(line).toContain(`"Extended, ""multi-site"""`);
  });

  it("gives the times with the offset of time_zone when one is asked for", async () => {
    const res = await admin.request(`/api/purchases/history.csv?${SEEDED}&outcome=failed&time_zone=Asia%2FTokyo`);
    expect(
      parseCsv(res.text.replace(/^\ufeff/, ""))
        .slice(1)
        .map((row) => row[1]),
    ).toEqual(["2024-05-03T21:00:00.000+09:00"]);
  });

  it("applies the filters: outcome, user, code", async () => {
    const rows = async (query: string) =>
      parseCsv(
        (await admin.request(`/api/purchases/history.csv?${SEEDED}&${query}`)).text.replace(/^\ufeff/, ""),
      ).slice(1);
    expect((await rows("outcome=failed")).map((r) => r[4])).toEqual([
      "The item service did not answer in time; try again later.",
    ]);
    expect(await rows("user=SEEDER.TWO%40example.com")).toHaveLength(2);
    const searchedRows = parseCsv(
      (await searchCsv(admin, { ...SEEDED_BODY, code: SEED_A, page: 3 })).text.replace(/^\ufeff/, ""),
    ).slice(1);
    expect(searchedRows.map((r) => r[2])).toEqual(["5eda", "5eda"]);
  });

  it("answers a refused filter as a JSON 400, not a CSV", async () => {
    const res = await searchCsv(admin, { code: "seeded00-aaaa-4\u0430aa" });
    expectFieldError(res, "code");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("who may see the history", () => {
  const routes = ["/api/purchases/history", "/api/purchases/history.csv"];

  it.each(routes)("%s: anonymous 401, viewer 403, support, editor and admin 200", async (route) => {
    expect((await gateway.request(route)).status).toBe(401);
    expect((await viewer.request(route)).status).toBe(403);
    for (const client of [support, editor, admin]) expect((await client.request(route)).status).toBe(200);
  });

  it("validate: anonymous 401, viewer 403 without an upstream call", async () => {
    expect(
      (
        await gateway.request("/api/purchases/validate", {
          ...jsonPost({ purchase_code: UNKNOWN_2 }),
          headers: { "Content-Type": "application/json", "X-CSRF": "1" },
        })
      ).status,
    ).toBe(401);
    expect((await validate(viewer, UNKNOWN_2)).status).toBe(403);
    expect(await sandbox.requests()).toEqual([]);
  });

  it.each(routes)("%s answers only GET: POST → 405 with Allow", async (route) => {
    const res = await admin.request(route, jsonPost({}));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it.each(["/api/purchases/history/search", "/api/purchases/history/search.csv"])(
    "POST %s: anonymous 401, viewer 403, support, editor and admin 200; GET → 405; no X-CSRF → 403",
    async (route) => {
      const body = jsonPost({ code: SEED_A });
      expect(
        (await gateway.request(route, { ...body, headers: { "Content-Type": "application/json", "X-CSRF": "1" } }))
          .status,
      ).toBe(401);
      expect((await viewer.request(route, body)).status).toBe(403);
      for (const client of [support, editor, admin]) expect((await client.request(route, body)).status).toBe(200);
      const get = await admin.request(route);
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("POST, OPTIONS");
      expect(
        (await admin.request(route, { ...body, headers: { "Content-Type": "application/json", "X-CSRF": "0" } }))
          .status,
      ).toBe(403);
    },
  );
});

describe("no full code leaves the history", () => {
  const codes = [
    FIXED_PURCHASE_CODES.active,
    FIXED_PURCHASE_CODES.expired,
    FIXED_PURCHASE_CODES.none,
    UNKNOWN,
    SEED_A,
    SEED_B,
  ];

  it("history answers (JSON and CSV, searched by the code itself) hold only the last 4", async () => {
    for (const code of codes) {
      const json = await search(admin, { code, per_page: 100 });
      const csv = await searchCsv(admin, { code });
      expect(json.json.meta.total).toBeGreaterThan(0);
      expect(json.text).not.toContain(code);
      expect(csv.text).not.toContain(code);
      expect(json.text).toContain(code.slice(-4));
    }
  });

  it("no log line of the gateway holds a full code (searches by code included)", () => {
    const lines = gateway.output();
    expect(lines.length).toBeGreaterThan(0);
    for (const code of codes) expect(lines.filter((line) => line.includes(code))).toEqual([]);
  });

  it("no canary key appeared in any answer or log line of this file", () => {
    expect(() => gateway.assertNoKeyLeaked()).not.toThrow();
  });
});
