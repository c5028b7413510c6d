// GET /api/admin/audit/export over real HTTP (next start, on SQLite and PostgreSQL): the audit log for a range as
// newline-delimited JSON and as CSV, streamed oldest first, every row of the range and none outside it, whatever
// the rows hold (commas, quotes, line breaks, a cell that starts like a formula); the filters of the list; bad
// input refused with a sentence; only audit:read; and the export is itself audited. Memory while exporting
// 100,000 rows is measured by scripts/bench/audit-export.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";

import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";

const ROWS = 2_500;
const START = Date.parse("2026-10-01T00:00:00.000Z");
const HOUR = 3_600_000;
/** Row n happens n hours after START: 2,500 rows span about 104 days. */
const atOf = (n: number) => new Date(START + n * HOUR).toISOString();

/** A CSV file's rows (RFC 4180: quoted cells may hold commas, quotes doubled, CRLF), the BOM dropped. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const body = text.replace(/^\ufeff/, "");
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && body[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i += 1;
    } else cell += c;
  }
  return rows;
}

describe.each(bothServerStores())("on $name", (serverStore) => {
  const {
    gateway,
    clients: { admin, viewer },
  } = setUpGateway({ store: serverStore, signIn: ["admin", "viewer"] });
  let store: Store;

  beforeAll(async () => {
    store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
    const rows = Array.from({ length: ROWS }, (_, n) => ({
      at: atOf(n),
      user_id: null,
      user_email: n % 2 === 0 ? "even@example.com" : "odd@example.com",
      action: n % 5 === 0 ? "report.delete" : "report.create",
      target_type: "report",
      target_id: String(n),
      // What a row may hold: a comma, a quote, a line break, and a cell a spreadsheet would run as a formula.
      target_label: n === 7 ? '=HYPERLINK("http://evil.example","x"), and\na second line' : `https://shop.example/${n}`,
      outcome: "success",
      request_id: `req-${n}`,
      detail: JSON.stringify({ n }),
      repeat_count: 1,
      last_at: null,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await store.db
        .insertInto("audit_log")
        .values(rows.slice(i, i + 500))
        .execute();
  });
  afterAll(async () => {
    await store?.close();
  });

  /** The seeded rows' `n` (from target_id) of an export's records, in order. */
  const seeded = (records: Array<{ target: { id: string } | null; action: string }>) =>
    records.filter((r) => r.action.startsWith("report.")).map((r) => Number(r.target!.id));

  it("streams a range as NDJSON in the order written: every row of the range, none outside it", async () => {
    // Hours 100 to 1,999 inclusive, given as instants.
    const res = await admin.request(`/api/admin/audit/export?format=ndjson&from=${atOf(100)}&to=${atOf(1999)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="gatehouse-audit.ndjson"');
    const lines = res.text.split("\n");
    expect(lines.pop()).toBe("");
    const records = lines.map((line) => JSON.parse(line) as { id: number; target: { id: string }; action: string });
    expect(seeded(records)).toEqual(Array.from({ length: 1900 }, (_, i) => 100 + i));
    const ids = records.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // Each line is what GET /api/admin/audit shows for the row.
    const listed = await admin.request(`/api/admin/audit?from=${atOf(100)}&to=${atOf(100)}`);
    expect(records.find((r) => r.target?.id === "100")).toEqual(listed.json.data[0]);
  });

  it("streams CSV with a header row; a comma, a quote, a line break and a formula survive as text", async () => {
    const res = await admin.request(`/api/admin/audit/export?format=csv&from=${atOf(0)}&to=${atOf(9)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual([
      "id",
      "at",
      "user_id",
      "user_email",
      "user_name",
      "action",
      "target_type",
      "target_id",
      "target_label",
      "outcome",
      "request_id",
      "summary",
      "count",
      "last_at",
      "detail",
    ]);
    expect(rows.map((row) => Number(row[7]))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const seventh = rows[7]!;
    expect(seventh[8]).toBe(`'=HYPERLINK("http://evil.example","x"), and\na second line`);
    expect(JSON.parse(seventh[14]!)).toEqual({ n: 7 });
    expect(seventh[1]).toBe(atOf(7));
  });

  it("takes the list's filters: a person and an action", async () => {
    const res = await admin.request(
      `/api/admin/audit/export?format=ndjson&user=EVEN@example.com&action=report.delete&from=2026-10-01&to=2026-10-10`,
    );
    expect(res.status, res.text).toBe(200);
    const records = res.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    // Even hours that are multiples of 5 within the first 10 days (240 hours): multiples of 10.
    expect(seeded(records)).toEqual(Array.from({ length: 24 }, (_, i) => i * 10));
  });

  it("exports every row when no range is given (any size: several pages of the store)", async () => {
    const res = await admin.request(`/api/admin/audit/export?format=ndjson&action=report.create`);
    expect(res.status).toBe(200);
    const records = res.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(ROWS - ROWS / 5);
  });

  it("refuses what it cannot do with a sentence naming the parameter", async () => {
    const noFormat = await admin.request(`/api/admin/audit/export`);
    expect(noFormat.status).toBe(400);
    expect(noFormat.json.error.fields).toHaveProperty("format");
    const badFormat = await admin.request(`/api/admin/audit/export?format=xml`);
    expect(badFormat.status).toBe(400);
    expect(badFormat.json.error.fields.format).toMatch(/ndjson/);
    const backwards = await admin.request(`/api/admin/audit/export?format=csv&from=2026-11-02&to=2026-11-01`);
    expect(backwards.status).toBe(400);
    expect(backwards.json.error.fields.from).toMatch(/after to/);
    const unknown = await admin.request(`/api/admin/audit/export?format=csv&page=2`);
    expect(unknown.status).toBe(400);
  });

  it("is for audit:read only, and the export is itself a row of the log", async () => {
    const refused = await viewer.request(`/api/admin/audit/export?format=ndjson`);
    expect(refused.status).toBe(403);
    const list = await admin.request(`/api/admin/audit?action=audit.export&per_page=100`);
    expect(list.status).toBe(200);
    const exports = list.json.data as Array<{ user_email: string; detail: Record<string, unknown> }>;
    expect(exports.length).toBeGreaterThanOrEqual(4);
    expect(exports.every((row) => row.user_email === admin.user.email)).toBe(true);
    expect(exports.map((row) => row.detail.format)).toContain("csv");
  });
});
