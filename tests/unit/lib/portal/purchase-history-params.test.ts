// The purchase history view's URL: filters kept, a full code never (it goes in the search's body), and every
// query the page sends is one the API takes.
import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import {
  BulkCreateBodySchema,
  BulkJobIdParamsSchema,
  PurchaseHistoryQuerySchema,
  PurchaseHistorySearchBodySchema,
} from "@/lib/contract/purchases";
import { BULK_JOB_ID_PATTERN, BULK_MAX_CODES, RAW_PURCHASE_CODE_MAX_LENGTH } from "@/lib/contract/values";
import { summariseBatch } from "@/lib/portal/purchase-bulk";
import {
  historyApiPath,
  historyCsvPath,
  historyQueryString,
  historySearchBody,
  parseHistoryParams,
} from "@/lib/portal/purchase-history-params";

const ACTIVE = "11111111-1111-4111-8111-111111111111";

const EXPIRED = "22222222-2222-4222-8222-222222222222";

const BERLIN = "Europe/Berlin";

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
    for (const bad of ["", "123", `${id}x`, `${id}.csv`, "../../etc/passwd"])
      expect(BULK_JOB_ID_PATTERN.test(bad)).toBe(false);
  });

  it("every query the history page sends is one the API takes", () => {
    const query = parseHistoryParams(
      new URLSearchParams(
        "outcome=failed&item_id=100005&user=support%40e2e.test&from=2025-03-01&to=2025-03-31&per_page=50&page=3",
      ),
    );
    const sent = new URL(historyApiPath(query, BERLIN), "http://x").searchParams;
    expect(sent.get("time_zone")).toBe(BERLIN);
    expect(PurchaseHistoryQuerySchema.safeParse(Object.fromEntries(sent)).success).toBe(true);
    const csv = new URL(historyCsvPath(query, BERLIN), "http://x").searchParams;
    expect(PurchaseHistoryQuerySchema.safeParse(Object.fromEntries(csv)).success).toBe(true);
    const body = historySearchBody(query, ACTIVE, BERLIN);
    expect(body.time_zone).toBe(BERLIN);
    expect(PurchaseHistorySearchBodySchema.safeParse(body).success).toBe(true);
  });
});

describe("the history's URL", () => {
  it("keeps valid filters and drops what the API would refuse", () => {
    expect(
      parseHistoryParams({
        outcome: "valid",
        item_id: "100005",
        user: "a@b.c",
        from: "2025-03-01",
        to: "2025-03-31",
        per_page: "50",
        page: "2",
      }),
    ).toEqual({
      outcome: "valid",
      item_id: 100005,
      user: "a@b.c",
      from: "2025-03-01",
      to: "2025-03-31",
      per_page: 50,
      page: 2,
    });
    expect(
      parseHistoryParams({
        outcome: "maybe",
        item_id: "-1",
        user: "a\u0000b",
        from: "2025-13-45",
        per_page: "7",
        page: "0",
      }),
    ).toEqual({});
    // A range that ends before it starts: the start is kept.
    expect(parseHistoryParams({ from: "2025-03-10", to: "2025-03-01" })).toEqual({ from: "2025-03-10" });
    expect(parseHistoryParams({ item_id: ["12", "13"] })).toEqual({ item_id: 12 });
  });

  it("never puts a full code in a URL, the page's or the API's: it goes in the search's body", () => {
    const query = { outcome: "invalid" as const, page: 2 };
    expect(historyQueryString(query)).toBe("?outcome=invalid&page=2");
    // Without days, the zone does not matter to the list: its path stays short.
    expect(historyApiPath(query, BERLIN)).toBe("/api/purchases/history?outcome=invalid&per_page=25&page=2");
    expect(historySearchBody(query, EXPIRED, BERLIN)).toEqual({
      code: EXPIRED,
      outcome: "invalid",
      per_page: 25,
      page: 2,
    });
    // The CSV is every page of the same filters, its times in the person's zone.
    expect(historyCsvPath({ ...query, per_page: 50 }, BERLIN)).toBe(
      "/api/purchases/history.csv?outcome=invalid&time_zone=Europe%2FBerlin",
    );
    expect(historyCsvPath({}, "UTC")).toBe("/api/purchases/history.csv?time_zone=UTC");
    expect(historyQueryString({})).toBe("");
  });
});
