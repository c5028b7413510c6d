// The purchase history store on SQLite and PostgreSQL: what a check keeps (never the code), the summary of
// earlier checks, every filter, pagination, and the CSV export's paging, cap and escaping.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fromPurchaseCodeRefused } from "@/lib/api/errors";
import { isPurchaseCodeRefused, PurchaseCodeRefused } from "@/lib/purchases/errors";
import type { Purchase } from "@/lib/contract/purchases";
import { hashPurchaseCode } from "@/lib/auth/audit";
import { checksPerItem } from "@/lib/purchases/checks-per-item";
import {
  listPurchaseHistory,
  PURCHASE_HISTORY_CSV_COLUMNS,
  purchaseHistoryCsv,
  purchaseHistorySummary,
  recordPurchaseCheck,
  type PurchaseCheckRecordInput,
  type PurchaseHistoryFilters,
} from "@/lib/purchases/history";

import { postgresBackend, sqliteBackend, useStore, type Backend } from "@/tests/support/store-backends";
import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";

import { parseCsv } from "@/tests/support/csv";

const KEY = "history-test-key-0123456789abcdef";
const CODE_A = "aaaaaaaa-1111-4111-8111-11111111a001";
const CODE_B = "bbbbbbbb-2222-4222-8222-22222222b002";
const ALICE = { id: "u-alice", email: "Alice@Example.com" };
const BOB = { id: "u-bob", email: "bob@example.com" };

const purchase: Purchase = {
  purchase_code: CODE_A,
  license_type: "Regular License",
  price: 59,
  currency: "USD",
  item: { id: 101, name: "Dashboard Kit", url: null, media: {} },
  supported_until: "2030-01-31T00:00:00.000Z",
  downloaded: true,
  date: "2024-01-31T00:00:00.000Z",
};

function check(overrides: Partial<PurchaseCheckRecordInput> = {}): PurchaseCheckRecordInput {
  return {
    user: ALICE,
    code: CODE_A,
    outcome: "invalid",
    reason: "Invalid purchase code",
    source: "single",
    ...overrides,
  };
}

const at = (iso: string) => new Date(iso);

/** The download as text, its byte-order mark kept (Response#text() would drop it). */
async function csvText(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

let postgres: TestPostgres | undefined;
const pgBackend = postgresBackend(() => {
  if (!postgres) throw new Error("PostgreSQL did not start");
  return postgres;
});
beforeAll(async () => {
  postgres = await startTestPostgres();
});
afterAll(async () => {
  await pgBackend.dispose();
  await postgres?.stop();
});

describe.each<Backend>([sqliteBackend, pgBackend])("purchase history on $name", (backend) => {
  const store = useStore(backend);
  const list = (filters: PurchaseHistoryFilters = {}, page = 1, perPage = 25) =>
    listPurchaseHistory(store().db, KEY, { ...filters, page, perPage });

  describe("recordPurchaseCheck", () => {
    it("keeps the keyed hash and last 4 of the code, never the code, and the purchase's facts when valid", async () => {
      await recordPurchaseCheck(
        store().db,
        KEY,
        check({ outcome: "valid", reason: null, purchase, requestId: "req-1", at: at("2025-03-01T10:00:00.000Z") }),
      );
      const row = await store().db.selectFrom("purchase_checks").selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        checked_at: "2025-03-01T10:00:00.000Z",
        user_id: "u-alice",
        user_email: "alice@example.com",
        code_hash: hashPurchaseCode(CODE_A, KEY),
        code_last4: "a001",
        outcome: "valid",
        reason: null,
        item_id: 101,
        item_name: "Dashboard Kit",
        license_type: "Regular License",
        supported_until: "2030-01-31T00:00:00.000Z",
        source: "single",
        bulk_job_id: null,
        request_id: "req-1",
      });
      expect(JSON.stringify(row)).not.toContain(CODE_A);
    });

    it("keeps no purchase facts for a check that was not valid", async () => {
      await recordPurchaseCheck(
        store().db,
        KEY,
        check({ outcome: "failed", reason: "The item service did not answer in time.", purchase }),
      );
      const [entry] = (await list()).rows;
      expect(entry).toMatchObject({
        outcome: "failed",
        reason: "The item service did not answer in time.",
        item_id: null,
        item_name: null,
        license_type: null,
        supported_until: null,
      });
    });

    it("keeps a bulk check's job id", async () => {
      await recordPurchaseCheck(
        store().db,
        KEY,
        check({ source: "bulk", bulkJobId: "0b7f6a1e-9d2c-4c1e-8f3a-2b5d7e9f1a3c" }),
      );
      expect((await list()).rows[0]).toMatchObject({
        source: "bulk",
        bulk_job_id: "0b7f6a1e-9d2c-4c1e-8f3a-2b5d7e9f1a3c",
      });
    });

    it("keeps a helpdesk check's ticket, found again by the ticket filter (system and id together)", async () => {
      const ticket = { system: "zendesk", id: "4211", url: "https://acme.zendesk.com/agent/tickets/4211" } as const;
      await recordPurchaseCheck(store().db, KEY, check({ source: "helpdesk", ticket }));
      await recordPurchaseCheck(
        store().db,
        KEY,
        check({ source: "helpdesk", ticket: { ...ticket, system: "freshdesk", url: null } }),
      );
      await recordPurchaseCheck(store().db, KEY, check({}));
      const found = await list({ ticket: "zendesk:4211" });
      expect(found.total).toBe(1);
      expect(found.rows[0]).toMatchObject({ source: "helpdesk", ticket });
      expect((await list({ ticket: "freshdesk:4211" })).rows[0]?.ticket).toEqual({
        system: "freshdesk",
        id: "4211",
        url: null,
      });
      expect((await list({ ticket: "zendesk:42" })).total).toBe(0);
      expect((await list({})).rows.filter((row) => row.ticket === null)).toHaveLength(1);
    });

    it("refuses an empty code", async () => {
      await expect(recordPurchaseCheck(store().db, KEY, check({ code: "" }))).rejects.toThrow(RangeError);
    });
  });

  describe("purchaseHistorySummary", () => {
    it("knows nothing of a new code", async () => {
      expect(await purchaseHistorySummary(store().db, KEY, [CODE_A])).toEqual({
        previous_checks: 0,
        first_checked_at: null,
        first_checked_by: null,
      });
    });

    it("counts every check of the code by anyone and names the first, whatever order they were written in", async () => {
      const db = store().db;
      await recordPurchaseCheck(db, KEY, check({ user: ALICE, at: at("2025-03-02T09:00:00.000Z") }));
      await recordPurchaseCheck(db, KEY, check({ user: BOB, at: at("2025-03-01T08:00:00.000Z"), source: "bulk" }));
      await recordPurchaseCheck(db, KEY, check({ code: CODE_B, user: ALICE, at: at("2025-02-01T08:00:00.000Z") }));
      expect(await purchaseHistorySummary(db, KEY, [CODE_A])).toEqual({
        previous_checks: 2,
        first_checked_at: "2025-03-01T08:00:00.000Z",
        first_checked_by: "bob@example.com",
      });
    });

    it("counts the checks of every form the code was recorded in (rows hashed upper-case before codes were read as UUIDs)", async () => {
      const db = store().db;
      await recordPurchaseCheck(db, KEY, check({ code: CODE_A.toUpperCase(), at: at("2025-03-01T08:00:00.000Z") }));
      await recordPurchaseCheck(db, KEY, check({ code: CODE_A, at: at("2025-03-02T08:00:00.000Z") }));
      const forms = [CODE_A, CODE_A.toUpperCase()];
      expect((await purchaseHistorySummary(db, KEY, forms)).previous_checks).toBe(2);
    });

    it("does not link codes under another hash key", async () => {
      await recordPurchaseCheck(store().db, KEY, check());
      expect(
        (await purchaseHistorySummary(store().db, "another-key-0123456789abcdefghij", [CODE_A])).previous_checks,
      ).toBe(0);
    });
  });

  describe("listPurchaseHistory", () => {
    /** Six checks over three days, two users, two codes, three outcomes. */
    async function seed() {
      const db = store().db;
      const rows: PurchaseCheckRecordInput[] = [
        check({ at: at("2025-03-01T00:00:00.000Z"), outcome: "valid", reason: null, purchase, user: ALICE }),
        check({ at: at("2025-03-01T23:59:59.999Z"), outcome: "invalid", code: CODE_B, user: BOB }),
        check({
          at: at("2025-03-02T00:00:00.000Z"),
          outcome: "failed",
          reason: "The item service did not answer in time.",
          user: BOB,
        }),
        check({
          at: at("2025-03-02T12:00:00.000Z"),
          outcome: "valid",
          reason: null,
          purchase: { ...purchase, item: { ...purchase.item, id: 202, name: "Other" } },
          user: ALICE,
        }),
        check({ at: at("2025-03-03T06:00:00.000Z"), outcome: "invalid", code: CODE_B, user: ALICE }),
        check({ at: at("2025-03-03T06:00:00.000Z"), outcome: "valid", reason: null, purchase, user: BOB }),
      ];
      for (const row of rows) await recordPurchaseCheck(db, KEY, row);
    }
    const times = (rows: Array<{ checked_at: string }>) => rows.map((r) => r.checked_at);

    it("answers newest first, the later-written of two checks at the same moment first, with the total", async () => {
      await seed();
      const { rows, total } = await list();
      expect(total).toBe(6);
      expect(times(rows)).toEqual([
        "2025-03-03T06:00:00.000Z",
        "2025-03-03T06:00:00.000Z",
        "2025-03-02T12:00:00.000Z",
        "2025-03-02T00:00:00.000Z",
        "2025-03-01T23:59:59.999Z",
        "2025-03-01T00:00:00.000Z",
      ]);
      expect(rows[0]!.id).toBeGreaterThan(rows[1]!.id);
      expect(rows[0]).toMatchObject({
        outcome: "valid",
        checked_by: { id: "u-bob", email: "bob@example.com" },
        code_last4: "a001",
        item_id: 101,
      });
    });

    it("pages: page 2 of 4 per page holds the last 2, and a page past the end is empty with the same total", async () => {
      await seed();
      const page2 = await list({}, 2, 4);
      expect(page2.total).toBe(6);
      expect(times(page2.rows)).toEqual(["2025-03-01T23:59:59.999Z", "2025-03-01T00:00:00.000Z"]);
      expect(await list({}, 3, 4)).toEqual({ rows: [], total: 6 });
    });

    it("filters by outcome, item, user id, user email in any case", async () => {
      await seed();
      expect((await list({ outcome: "valid" })).total).toBe(3);
      expect((await list({ outcome: "failed" })).rows.map((r) => r.reason)).toEqual([
        "The item service did not answer in time.",
      ]);
      expect((await list({ item_id: 202 })).rows.map((r) => r.item_name)).toEqual(["Other"]);
      expect((await list({ user: "u-bob" })).total).toBe(3);
      expect((await list({ user: "  BOB@Example.COM " })).total).toBe(3);
      expect((await list({ user: "nobody@example.com" })).total).toBe(0);
    });

    it("reads a bare date as the whole UTC day on either side, and a date-time with its offset", async () => {
      await seed();
      expect(times((await list({ from: "2025-03-01", to: "2025-03-01" })).rows)).toEqual([
        "2025-03-01T23:59:59.999Z",
        "2025-03-01T00:00:00.000Z",
      ]);
      expect((await list({ from: "2025-03-02" })).total).toBe(4);
      expect((await list({ to: "2025-03-02" })).total).toBe(4);
      // 08:00 at +02:00 is 06:00 UTC: both checks of that moment, inclusive.
      expect((await list({ from: "2025-03-03T08:00:00+02:00" })).total).toBe(2);
      expect((await list({ to: "2025-03-01T23:59:59.998Z" })).total).toBe(1);
    });

    it("combines filters", async () => {
      await seed();
      const { rows } = await list({ user: "alice@example.com", outcome: "valid", from: "2025-03-02", item_id: 202 });
      expect(times(rows)).toEqual(["2025-03-02T12:00:00.000Z"]);
      expect((await list({ user: "u-alice", code: CODE_B })).total).toBe(1);
    });

    it("finds a full code through its hash, cleaned like a check (invisible characters, full-width digits)", async () => {
      await seed();
      expect((await list({ code: CODE_A })).total).toBe(4);
      expect((await list({ code: `\u200b${CODE_A.slice(0, 8)}\u200d${CODE_A.slice(8)} ` })).total).toBe(4);
      const fullWidth = CODE_A.replace("1111", "\uff11\uff11\uff11\uff11");
      expect((await list({ code: fullWidth })).total).toBe(4);
      expect((await list({ code: CODE_B })).total).toBe(2);
      expect((await list({ code: "cccccccc-3333-4333-8333-33333333c003" })).total).toBe(0);
      // The last 4 alone is not a code: it finds nothing.
      expect((await list({ code: "a001" })).total).toBe(0);
    });

    it("refuses a code the normaliser refuses, naming the field and the reason (the API answers 400 with fields.code)", async () => {
      const lookalike = `aaaaaaa\u0430${CODE_A.slice(8)}`;
      const error = await list({ code: lookalike }).catch((e: unknown) => e);
      expect(isPurchaseCodeRefused(error)).toBe(true);
      const answer = fromPurchaseCodeRefused(error as PurchaseCodeRefused);
      expect(answer.status).toBe(400);
      expect(answer.fields?.code).toMatch(/^Character 8 is a Cyrillic .*U\+0430/);
    });
  });

  describe("checksPerItem", () => {
    const NOW = at("2025-03-31T12:00:00.000Z");
    const item = (id: number, name: string, supportedUntil: string | undefined): Purchase => ({
      ...purchase,
      item: { ...purchase.item, id, name },
      supported_until: supportedUntil,
    });

    it("counts the last 30 days per item: valid, support expired when checked, and invalid checks of codes once valid for it, revoked ones", async () => {
      const db = store().db;
      const kit = item(101, "Dashboard Kit", "2030-01-01T00:00:00.000Z");
      const expiredKit = item(101, "Dashboard Kit", "2025-01-01T00:00:00.000Z");
      const theme = item(202, "Old Theme", undefined);
      const valid = (code: string, p: Purchase, when: string) =>
        check({ code, outcome: "valid", reason: null, purchase: p, at: at(when) });
      await recordPurchaseCheck(db, KEY, valid(CODE_A, kit, "2025-03-20T10:00:00.000Z"));
      await recordPurchaseCheck(db, KEY, valid(CODE_A, kit, "2025-03-21T10:00:00.000Z"));
      await recordPurchaseCheck(db, KEY, valid(CODE_B, expiredKit, "2025-03-22T10:00:00.000Z"));
      await recordPurchaseCheck(
        db,
        KEY,
        valid("cccccccc-3333-4333-8333-33333333c003", theme, "2025-03-23T10:00:00.000Z"),
      );
      // CODE_B later refused by the item API (a refund): counted against its item.
      await recordPurchaseCheck(db, KEY, check({ code: CODE_B, at: at("2025-03-24T10:00:00.000Z") }));
      await recordPurchaseCheck(
        db,
        KEY,
        check({ code: "dddddddd-4444-4444-8444-44444444d004", at: at("2025-03-25T10:00:00.000Z") }),
      );
      await recordPurchaseCheck(
        db,
        KEY,
        check({ code: CODE_A, outcome: "failed", reason: "timeout", at: at("2025-03-25T11:00:00.000Z") }),
      );
      // A code of the theme's seen valid before and refused now: revoked, kept with its item, counted against it.
      await recordPurchaseCheck(
        db,
        KEY,
        check({
          code: "eeeeeeee-5555-4555-8555-55555555e005",
          outcome: "revoked",
          reason: "Valid on 1 Jan 2025 (Regular License, item Old Theme), not valid now.",
          previous: {
            first_valid_at: "2025-01-01T10:00:00.000Z",
            last_valid_at: "2025-01-01T10:00:00.000Z",
            item: { id: 202, name: "Old Theme" },
            license_type: "Regular License",
            supported_until: null,
            sold_at: null,
          },
          at: at("2025-03-26T10:00:00.000Z"),
        }),
      );
      // Older than 30 days: not counted.
      await recordPurchaseCheck(db, KEY, valid(CODE_A, kit, "2025-02-01T10:00:00.000Z"));

      expect(await checksPerItem(db, { now: NOW })).toEqual({
        since: "2025-03-01T12:00:00.000Z",
        items: [
          { item_id: 101, item_name: "Dashboard Kit", valid: 2, support_expired: 1, invalid: 1 },
          { item_id: 202, item_name: "Old Theme", valid: 1, support_expired: 0, invalid: 1 },
        ],
        unattributed: { invalid: 1, failed: 1 },
      });
    });
  });

  describe("purchaseHistoryCsv", () => {
    it("starts with a BOM and the header; rows are the list's, newest first, with the same values", async () => {
      await recordPurchaseCheck(
        store().db,
        KEY,
        check({ at: at("2025-03-01T10:00:00.000Z"), outcome: "valid", reason: null, purchase }),
      );
      await recordPurchaseCheck(
        store().db,
        KEY,
        check({ at: at("2025-03-02T10:00:00.000Z"), user: { id: null, email: null } }),
      );
      const text = await csvText(purchaseHistoryCsv(store().db, KEY, {}));
      expect(text.startsWith("\ufeffid,checked_at,code_last4,")).toBe(true);
      expect(text.endsWith("\r\n")).toBe(true);
      const [header, ...rows] = parseCsv(text.slice(1));
      expect(header).toEqual([...PURCHASE_HISTORY_CSV_COLUMNS]);
      const { rows: entries } = await list();
      expect(rows).toEqual(
        entries.map((e) => [
          String(e.id),
          e.checked_at,
          e.code_last4,
          e.outcome,
          e.reason ?? "",
          e.item_id === null ? "" : String(e.item_id),
          e.item_name ?? "",
          e.license_type ?? "",
          e.supported_until ?? "",
          e.support ?? "",
          e.checked_by.id ?? "",
          e.checked_by.email ?? "",
          e.source,
          e.bulk_job_id ?? "",
          e.ticket === null ? "" : `${e.ticket.system}:${e.ticket.id}`,
          e.ticket?.url ?? "",
          e.shared_suspected ? "yes" : "no",
        ]),
      );
      expect(text).not.toContain(CODE_A);
    });

    it("quotes commas, quotes and line breaks, and puts an apostrophe before a cell that starts like a formula", async () => {
      const hostile = {
        ...purchase,
        item: { ...purchase.item, name: '=HYPERLINK("http://evil.example","open")' },
        license_type: 'Regular, "extended"\nlicence',
      };
      await recordPurchaseCheck(store().db, KEY, check({ outcome: "valid", reason: null, purchase: hostile }));
      const text = await csvText(purchaseHistoryCsv(store().db, KEY, {}));
      expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""open"")"`);
      const [, row] = parseCsv(text.slice(1));
      expect(row?.[6]).toBe(`'=HYPERLINK("http://evil.example","open")`);
      expect(row?.[7]).toBe('Regular, "extended"\nlicence');
    });

    it("finds a code whatever form it is searched in, and rows stored upper-case before codes were read as UUIDs", async () => {
      const db = store().db;
      await recordPurchaseCheck(db, KEY, check({ code: CODE_B, at: at("2025-03-02T08:00:00.000Z") }));
      // An older row: the code was sent (and hashed) as the buyer pasted it.
      await recordPurchaseCheck(db, KEY, check({ code: CODE_B.toUpperCase(), at: at("2025-03-01T08:00:00.000Z") }));
      await recordPurchaseCheck(db, KEY, check({ code: CODE_A }));
      const pasted = [
        CODE_B.toUpperCase(),
        `{${CODE_B}}`,
        CODE_B.replace(/-/g, ""),
        `urn:uuid:${CODE_B}`,
        `"${CODE_B.toUpperCase()}"`,
      ];
      for (const code of pasted) {
        const rows = parseCsv((await csvText(purchaseHistoryCsv(db, KEY, { code }))).slice(1)).slice(1);
        expect(
          rows.map((r) => r[1]),
          code,
        ).toEqual(["2025-03-02T08:00:00.000Z", "2025-03-01T08:00:00.000Z"]);
      }
      const exact = parseCsv(
        (await csvText(purchaseHistoryCsv(db, KEY, { code: CODE_B.toUpperCase(), codeFormat: "exact" }))).slice(1),
      ).slice(1);
      expect(exact.map((r) => r[1])).toEqual(["2025-03-01T08:00:00.000Z"]);
    });

    it("applies the filters", async () => {
      await recordPurchaseCheck(store().db, KEY, check({ code: CODE_A }));
      await recordPurchaseCheck(store().db, KEY, check({ code: CODE_B, outcome: "failed" }));
      const rows = parseCsv((await csvText(purchaseHistoryCsv(store().db, KEY, { code: CODE_B }))).slice(1)).slice(1);
      expect(rows.map((r) => [r[2], r[3]])).toEqual([["b002", "failed"]]);
    });

    it("walks every row once across pages, checks at the same moment included", async () => {
      const db = store().db;
      for (let i = 0; i < 7; i++) {
        // Three rows share each moment: a page boundary falls between rows of the same checked_at.
        await recordPurchaseCheck(
          db,
          KEY,
          check({ at: at(`2025-03-0${1 + Math.floor(i / 3)}T10:00:00.000Z`), reason: `check ${i}` }),
        );
      }
      const rows = parseCsv((await csvText(purchaseHistoryCsv(db, KEY, {}, { pageRows: 2 }))).slice(1)).slice(1);
      expect(rows.map((r) => r[4])).toEqual([
        "check 6",
        "check 5",
        "check 4",
        "check 3",
        "check 2",
        "check 1",
        "check 0",
      ]);
    });

    it("stops at the cap with a last line saying so, and says nothing when the rows fit exactly", async () => {
      const db = store().db;
      for (let i = 0; i < 5; i++) await recordPurchaseCheck(db, KEY, check({ reason: `check ${i}` }));
      const capped = parseCsv((await csvText(purchaseHistoryCsv(db, KEY, {}, { maxRows: 3, pageRows: 2 }))).slice(1));
      expect(capped).toHaveLength(1 + 3 + 1);
      expect(capped.at(-1)).toEqual([
        "This export stops at 3 checks, the newest; narrow the filters (for example from and to) to export the rest.",
      ]);
      const exact = parseCsv((await csvText(purchaseHistoryCsv(db, KEY, {}, { maxRows: 5, pageRows: 2 }))).slice(1));
      expect(exact).toHaveLength(1 + 5);
      expect(exact.at(-1)?.[4]).toBe("check 0");
    });

    it("an empty history is the header alone", async () => {
      expect(await csvText(purchaseHistoryCsv(store().db, KEY, {}))).toBe(
        `\ufeff${PURCHASE_HISTORY_CSV_COLUMNS.join(",")}\r\n`,
      );
    });

    it("refuses a code the normaliser refuses before any byte is produced", () => {
      expect(() => purchaseHistoryCsv(store().db, KEY, { code: "aaaa\u0000bbbb" })).toThrow(PurchaseCodeRefused);
    });
  });
});
