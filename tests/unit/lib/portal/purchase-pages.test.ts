// The purchase pages' pure logic: the history's URL (filters kept, a full code never), the bulk form's count of
// a pasted list (agreeing with the gateway's own merge of duplicates), the words for a running job, the
// navigation's Purchases group, and the pages' checks agreeing with the contract's schemas.
import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { navRows } from "@/components/shell/app-shell";
import { BulkCreateBodySchema, BulkJobIdParamsSchema, PurchaseHistoryQuerySchema, PurchaseHistorySearchBodySchema } from "@/lib/contract/purchases";
import { navigationFor } from "@/lib/portal/navigation";
import { BULK_JOB_ID_PATTERN, BULK_MAX_CODES, RAW_PURCHASE_CODE_MAX_LENGTH } from "@/lib/contract/values";
import { codesLeft, countByStatus, describeBatch, percentDone, statusAnnouncement, summariseBatch, timeLeftText, type JobCounts } from "@/lib/portal/purchase-bulk";
import { historyApiPath, historyCsvPath, historyQueryString, historySearchBody, parseHistoryParams } from "@/lib/portal/purchase-history-params";
import { prepareBatch } from "@/lib/purchases/bulk/batch";

const ACTIVE = "11111111-1111-4111-8111-111111111111";
const EXPIRED = "22222222-2222-4222-8222-222222222222";

describe("the pages' checks agree with the contract's schemas", () => {
  it("a list the form lets through is one the API takes, and one over the limit is refused by both", () => {
    const atLimit = Array.from({ length: BULK_MAX_CODES }, (_, n) => `code-${n}`);
    expect(summariseBatch(atLimit).problem).toBeNull();
    expect(BulkCreateBodySchema.safeParse({ codes: atLimit }).success).toBe(true);
    const over = [...atLimit, "one-more"];
    expect(summariseBatch(over).problem).toMatch(/^That is 501 codes; one check takes at most 500\./);
    expect(BulkCreateBodySchema.safeParse({ codes: over }).success).toBe(false);
    const long = ["x".repeat(RAW_PURCHASE_CODE_MAX_LENGTH + 1)];
    expect(summariseBatch(long).problem).toMatch(/^Code 1 is longer than 1000 characters/);
    expect(BulkCreateBodySchema.safeParse({ codes: long }).success).toBe(false);
  });

  it("a job id the pages accept is one the API accepts", () => {
    const id = randomUUID();
    expect(BULK_JOB_ID_PATTERN.test(id)).toBe(true);
    expect(BulkJobIdParamsSchema.safeParse({ id }).success).toBe(true);
    for (const bad of ["", "123", `${id}x`, `${id}.csv`, "../../etc/passwd"]) expect(BULK_JOB_ID_PATTERN.test(bad)).toBe(false);
  });

  it("every query the history page sends is one the API takes", () => {
    const query = parseHistoryParams(
      new URLSearchParams("outcome=failed&item_id=100005&user=support%40e2e.test&from=2025-03-01&to=2025-03-31&per_page=50&page=3"),
    );
    const sent = new URL(historyApiPath(query), "http://x").searchParams;
    expect(PurchaseHistoryQuerySchema.safeParse(Object.fromEntries(sent)).success).toBe(true);
    const csv = new URL(historyCsvPath(query), "http://x").searchParams;
    expect(PurchaseHistoryQuerySchema.safeParse(Object.fromEntries(csv)).success).toBe(true);
    expect(PurchaseHistorySearchBodySchema.safeParse(historySearchBody(query, ACTIVE)).success).toBe(true);
  });
});

describe("the history's URL", () => {
  it("keeps valid filters and drops what the API would refuse", () => {
    expect(
      parseHistoryParams({ outcome: "valid", item_id: "100005", user: "a@b.c", from: "2025-03-01", to: "2025-03-31", per_page: "50", page: "2" }),
    ).toEqual({ outcome: "valid", item_id: 100005, user: "a@b.c", from: "2025-03-01", to: "2025-03-31", per_page: 50, page: 2 });
    expect(parseHistoryParams({ outcome: "maybe", item_id: "-1", user: "a\u0000b", from: "2025-13-45", per_page: "7", page: "0" })).toEqual({});
    // A range that ends before it starts: the start is kept.
    expect(parseHistoryParams({ from: "2025-03-10", to: "2025-03-01" })).toEqual({ from: "2025-03-10" });
    expect(parseHistoryParams({ item_id: ["12", "13"] })).toEqual({ item_id: 12 });
  });

  it("never puts a full code in a URL, the page's or the API's: it goes in the search's body", () => {
    const query = { outcome: "invalid" as const, page: 2 };
    expect(historyQueryString(query)).toBe("?outcome=invalid&page=2");
    expect(historyApiPath(query)).toBe("/api/purchases/history?outcome=invalid&per_page=25&page=2");
    expect(historySearchBody(query, EXPIRED)).toEqual({ code: EXPIRED, outcome: "invalid", per_page: 25, page: 2 });
    // The CSV is every page of the same filters.
    expect(historyCsvPath({ ...query, per_page: 50 })).toBe("/api/purchases/history.csv?outcome=invalid");
    expect(historyCsvPath({})).toBe("/api/purchases/history.csv");
    expect(historyQueryString({})).toBe("");
  });
});

describe("the bulk form's count", () => {
  it.each([
    [[], "No codes yet."],
    [[ACTIVE], "1 code — 1 will be checked"],
    [[ACTIVE, ACTIVE], "2 codes, 1 duplicate — 1 will be checked"],
    [[ACTIVE, ` ${ACTIVE}\u200b`, EXPIRED, ` ${EXPIRED} `, ACTIVE], "5 codes, 3 duplicates — 2 will be checked"],
  ])("%j → %s", (codes, sentence) => {
    expect(describeBatch(summariseBatch(codes))).toBe(sentence);
  });

  it("counts like the gateway: same duplicates, same distinct codes, the same codes refused", () => {
    const lookalike = `${ACTIVE.slice(0, 35)}\u0430`;
    const batches = [
      [ACTIVE, EXPIRED, ACTIVE],
      [`\ufeff${ACTIVE}`, ACTIVE.toUpperCase(), `${ACTIVE}\u200d`, `１${ACTIVE.slice(1)}`],
      [lookalike, lookalike, ` ${lookalike} `, "", "   ", "\u0007code"],
      Array.from({ length: 40 }, (_, n) => `${n % 7}-code`),
    ];
    for (const batch of batches) {
      const ours = summariseBatch(batch);
      const gateway = prepareBatch(batch);
      expect(ours.duplicates).toBe(gateway.duplicates);
      expect(ours.distinct).toBe(gateway.codes.length);
      expect(ours.refused.map((code) => code.reason)).toEqual(gateway.codes.filter((code) => code.refused).map((code) => code.reason));
    }
  });

  it("names each refused code by its place in the list and the reason", () => {
    const summary = summariseBatch([ACTIVE, `${EXPIRED.slice(0, 35)}\u0430`]);
    expect(summary.problem).toBeNull();
    expect(summary.refused).toHaveLength(1);
    expect(summary.refused[0]).toMatchObject({ position: 2, code: `${EXPIRED.slice(0, 35)}\u0430` });
    expect(summary.refused[0]!.reason).toMatch(/36.*Cyrillic.*U\+0430/);
    expect(summariseBatch([]).problem).toBe("Paste at least one purchase code, or choose a file.");
  });
});

describe("a running job in words", () => {
  const job = (patch: Partial<JobCounts>): JobCounts => ({ status: "running", total: 200, done: 0, valid: 0, invalid: 0, failed: 0, cancelled: 0, ...patch });

  it.each([
    [null, "running", "Estimating the time left"],
    [0, "running", "Less than a minute left"],
    [59, "waiting", "Less than a minute left"],
    [60, "running", "About 1 min left"],
    [1_770, "running", "About 30 min left"],
    [3_600, "running", "About 1 h left"],
    [5_400, "running", "About 1 h 30 min left"],
    [120, "done", null],
    [120, "cancelled", null],
  ] as const)("%j seconds, %s → %s", (eta, status, text) => {
    expect(timeLeftText(eta, status)).toBe(text);
  });

  it("percent done is whole, and 100 only when every code is done", () => {
    expect(percentDone(job({ done: 0 }))).toBe(0);
    expect(percentDone(job({ done: 1 }))).toBe(0);
    expect(percentDone(job({ done: 199 }))).toBe(99);
    expect(percentDone({ total: 1000, done: 999 })).toBe(99);
    expect(percentDone(job({ done: 200 }))).toBe(100);
  });

  it("codes left, and what a screen reader hears at each status", () => {
    expect(codesLeft(job({ done: 120 }))).toBe(80);
    expect(codesLeft(job({ status: "cancelled", done: 120, cancelled: 80 }))).toBe(0);
    expect(statusAnnouncement(job({ status: "queued", total: 1 }))).toBe("Queued: 1 code will be checked shortly.");
    expect(statusAnnouncement(job({}))).toBe("Checking 200 codes.");
    expect(statusAnnouncement(job({ status: "waiting" }))).toMatch(/^Paused: the item service asked Gatehouse to slow down/);
    expect(statusAnnouncement(job({ status: "done", done: 200, valid: 180, invalid: 15, failed: 5 }))).toBe("Finished: 180 valid, 15 invalid, 5 failed.");
    expect(statusAnnouncement(job({ status: "cancelled", done: 120, valid: 100, invalid: 20, cancelled: 80 }))).toBe(
      "Cancelled: 120 checked (100 valid, 20 invalid, 0 failed), 80 codes not checked.",
    );
  });

  it("counts results by status for the filter", () => {
    expect(countByStatus([{ status: "valid" }, { status: "valid" }, { status: "pending" }, { status: "cancelled" }])).toEqual({
      pending: 1,
      valid: 2,
      invalid: 0,
      failed: 0,
      cancelled: 1,
    });
  });
});

describe("the navigation's Purchases group", () => {
  const all = { reports: true, items: true };

  it("gathers the purchase pages under one heading, for the roles that may check codes", () => {
    const rows = navRows(navigationFor("support", all));
    expect(rows.map((row) => (row.kind === "item" ? row.item.label : `${row.label}: ${row.items.map((item) => item.label).join(", ")}`))).toEqual([
      "Dashboard",
      "Items",
      "Purchases: Check a code, Bulk check, History",
      "Seller account",
    ]);
    expect(navigationFor("viewer", all).some((item) => item.group === "Purchases")).toBe(false);
    expect(navigationFor("admin", { reports: true, items: false }).some((item) => item.group === "Purchases")).toBe(false);
  });

  it("a group split by another item starts again", () => {
    const rows = navRows([
      { href: "/a", label: "A", group: "G" },
      { href: "/b", label: "B" },
      { href: "/c", label: "C", group: "G" },
    ]);
    expect(rows.map((row) => row.kind)).toEqual(["group", "item", "group"]);
  });
});
