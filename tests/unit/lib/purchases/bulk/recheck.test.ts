// Re-checking a job's failed rows, on SQLite and PostgreSQL: only failures a retry can pass go back to pending,
// the job is queued again (the sweep takes it up), the codes count against the hourly allowance; and a job's results as
// the job page reads them (findBulkResultsPage): filtered, searched and paged on the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Purchase } from "@/lib/contract/purchases";
import { allowanceUse } from "@/lib/purchases/bulk/allowance";
import { createBulkJob } from "@/lib/purchases/bulk/jobs";
import { sweepBulkJobs } from "@/lib/purchases/bulk/queue";
import { recheckFailedRows } from "@/lib/purchases/bulk/recheck";
import { pendingCodes, recordBulkResult } from "@/lib/purchases/bulk/results";
import { findBulkJobSummary, findBulkResultsPage } from "@/lib/purchases/bulk/summaries";

import { postgresBackend, sqliteBackend, useStore, type Backend } from "@/tests/support/store-backends";
import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";

const KEY = "bulk-recheck-test-key-0123456789abcdef";
const ALICE = { id: "u-alice", email: "alice@example.com" };
const BOB = { id: "u-bob", email: "bob@example.com" };
const code = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const T0 = new Date("2026-11-21T10:00:00.000Z");
const later = (ms: number) => new Date(T0.getTime() + ms);

const purchase = (supportedUntil: string | undefined, name = "Dashboard Kit"): Purchase => ({
  purchase_code: code(0),
  license_type: "Regular License",
  price: 59,
  currency: "USD",
  item: { id: 101, name, url: null, media: {} },
  ...(supportedUntil === undefined ? {} : { supported_until: supportedUntil }),
  downloaded: true,
  date: "2024-01-31T00:00:00.000Z",
});

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

describe.each<Backend>([sqliteBackend, pgBackend])("re-checks and result pages on $name", (backend) => {
  const store = useStore(backend);

  /** A finished job of 5 codes: valid, valid with expired support, invalid, failed (retryable), failed (key refused). */
  async function finishedJob(user = ALICE, limitPerHour = 1000) {
    const db = store().db;
    const created = await createBulkJob(db, KEY, { user, rawCodes: [1, 2, 3, 4, 5].map(code), limitPerHour, now: T0 });
    if (!created.ok) throw new Error("refused");
    const at = later(1000);
    await recordBulkResult(db, created.id, 0, { status: "valid", purchase: purchase("2030-01-01T00:00:00.000Z") }, at);
    await recordBulkResult(
      db,
      created.id,
      1,
      { status: "valid", purchase: purchase("2025-01-01T00:00:00.000Z", "Old Theme") },
      at,
    );
    await recordBulkResult(db, created.id, 2, { status: "invalid", reason: "Invalid purchase code" }, at);
    await recordBulkResult(
      db,
      created.id,
      3,
      { status: "failed", reason: "The item service did not answer in time, after 3 tries.", retryable: true },
      at,
    );
    await recordBulkResult(
      db,
      created.id,
      4,
      { status: "failed", reason: "The item service refused Gatehouse's key." },
      at,
    );
    await db
      .updateTable("bulk_jobs")
      .set({ status: "done", finished_at: at.toISOString() })
      .where("id", "=", created.id)
      .execute();
    return created.id;
  }

  it("sends back only the failures a retry can pass, queues the job again, and the counts follow", async () => {
    const db = store().db;
    const id = await finishedJob();
    expect(
      await recheckFailedRows(db, id, { userId: ALICE.id }, { userId: ALICE.id, limitPerHour: 1000, now: later(2000) }),
    ).toEqual({ ok: true, codes: 1 });
    expect((await pendingCodes(db, id)).map((row) => row.idx)).toEqual([3]);
    expect(await findBulkJobSummary(db, id, { userId: null })).toMatchObject({
      status: "queued",
      finished_at: null,
      done: 4,
      failed: 1,
      valid: 2,
      invalid: 1,
    });
    // The sweep queues it as it queues a new job: it is active.
    const queued: string[] = [];
    await sweepBulkJobs(db, async (jobId) => void queued.push(jobId));
    expect(queued).toContain(id);
  });

  it("counts against the same hourly allowance, and is refused past it", async () => {
    const db = store().db;
    const id = await finishedJob(ALICE, 6);
    // 5 codes of the job are charged; the re-check of 1 fits in 6.
    expect(
      await recheckFailedRows(db, id, { userId: null }, { userId: ALICE.id, limitPerHour: 6, now: later(2000) }),
    ).toMatchObject({ ok: true });
    const use = await allowanceUse(db, ALICE.id, later(3000));
    expect(use.jobs.reduce((sum, job) => sum + job.charged, 0)).toBe(6);
    await recordBulkResult(db, id, 3, { status: "failed", reason: "timeout", retryable: true }, later(4000));
    await db.updateTable("bulk_jobs").set({ status: "done" }).where("id", "=", id).execute();
    expect(
      await recheckFailedRows(db, id, { userId: null }, { userId: ALICE.id, limitPerHour: 6, now: later(5000) }),
    ).toMatchObject({
      ok: false,
      decision: { left: 0, needed: 1, runAt: later(3_600_000) },
    });
    // The row stays failed: nothing was sent back.
    expect(await pendingCodes(db, id)).toEqual([]);
  });

  it("refuses while the job runs, when nothing can pass, and for a job that is not the user's", async () => {
    const db = store().db;
    const id = await finishedJob();
    expect(await recheckFailedRows(db, id, { userId: BOB.id }, { userId: BOB.id, limitPerHour: 1000 })).toEqual({
      ok: false,
      problem: "not_found",
    });
    await recheckFailedRows(db, id, { userId: ALICE.id }, { userId: ALICE.id, limitPerHour: 1000, now: later(2000) });
    expect(await recheckFailedRows(db, id, { userId: ALICE.id }, { userId: ALICE.id, limitPerHour: 1000 })).toEqual({
      ok: false,
      problem: "running",
    });
    await recordBulkResult(db, id, 3, { status: "invalid", reason: "Invalid purchase code" }, later(4000));
    await db.updateTable("bulk_jobs").set({ status: "done" }).where("id", "=", id).execute();
    // Left: an invalid code and a refused key, which a retry would not change.
    expect(await recheckFailedRows(db, id, { userId: ALICE.id }, { userId: ALICE.id, limitPerHour: 1000 })).toEqual({
      ok: false,
      problem: "nothing_to_recheck",
    });
  });

  it("pages, filters and searches a job's results on the server, counting each filter", async () => {
    const db = store().db;
    const id = await finishedJob();
    const page = (query: Parameters<typeof findBulkResultsPage>[4]) =>
      findBulkResultsPage(db, KEY, id, { userId: ALICE.id }, query);
    const all = await page({});
    expect(all?.meta).toEqual({ page: 1, per_page: 50, total: 5, last_page: 1 });
    expect(all?.counts).toEqual({
      all: 5,
      valid: 2,
      support_expired: 1,
      invalid: 1,
      revoked: 0,
      refused: 0,
      failed: 2,
      retryable: 1,
      pending: 0,
      cancelled: 0,
    });
    expect(all?.data.map((row) => [row.index, row.support, row.retryable])).toEqual([
      [0, "active", false],
      [1, "expired", false],
      [2, null, false],
      [3, null, true],
      [4, null, false],
    ]);
    expect((await page({ status: "support_expired" }))?.data.map((row) => row.index)).toEqual([1]);
    expect((await page({ status: "retryable" }))?.data.map((row) => row.index)).toEqual([3]);
    // Part of a code in another case or without hyphens, an item name, a reason.
    expect((await page({ q: "8000-000000000003".toUpperCase() }))?.data.map((row) => row.index)).toEqual([2]);
    expect((await page({ q: "8000000000000004" }))?.data.map((row) => row.index)).toEqual([3]);
    expect((await page({ q: "old theme" }))?.data.map((row) => row.index)).toEqual([1]);
    expect((await page({ q: "key", status: "failed" }))?.counts.all).toBe(1);
    const second = await page({ page: 2, per_page: 10 });
    expect(second?.data).toEqual([]);
    expect(second?.meta).toEqual({ page: 2, per_page: 10, total: 5, last_page: 1 });
    expect(await findBulkResultsPage(db, KEY, id, { userId: BOB.id }, {})).toBeNull();
  });
});
