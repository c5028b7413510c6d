// Bulk jobs in the store, on SQLite and PostgreSQL: batches cleaned and merged, codes sealed at rest, the hourly
// allowance, results written once, cancel, the 7-day purge — and the job's runs (./lane.ts) on the store's job
// provider, in this process, checking a batch against the sandbox through the real items client.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { hashPurchaseCode } from "@/lib/auth/audit";
import { startStoreJobs } from "@/lib/jobs/store";
import { bulkCheckJob, laneId } from "@/lib/purchases/bulk/lane";
import { allowanceDecision, allowanceUse } from "@/lib/purchases/bulk/allowance";
import {
  BULK_JOB_RETENTION_MS,
  cancelBulkJob,
  CHECK_UNDER_WAY_MAX_MS,
  createBulkJob,
  purgeExpiredBulkJobs,
  settleCancelledJobs,
} from "@/lib/purchases/bulk/jobs";
import { findBulkJob, listBulkJobs } from "@/lib/purchases/bulk/summaries";
import { beginCheck, countAttempt, pendingCodes, recordBulkResult } from "@/lib/purchases/bulk/results";
import { prepareBatch } from "@/lib/purchases/bulk/batch";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { createItemsClient } from "@/lib/upstream/items";

import { CANARY } from "@/tests/support/canary";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { until } from "@/tests/support/until";
import { postgresBackend, sqliteBackend, useStore, type Backend } from "@/tests/support/store-backends";
import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";

const KEY = "bulk-store-test-key-0123456789abcdef";
const ALICE = { id: "u-alice", email: "alice@example.com" };
const BOB = { id: "u-bob", email: "bob@example.com" };
const code = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const T0 = new Date("2026-11-21T10:00:00.000Z");
const later = (ms: number) => new Date(T0.getTime() + ms);

describe("prepareBatch", () => {
  it("cleans each code, merges duplicates after cleaning in the order of first appearance, and keeps refusals with the reason", () => {
    const { codes, duplicates } = prepareBatch([
      ` ${code(1)}`,
      code(2),
      `${code(1)}\u200b`,
      "\u0430bc",
      code(2),
      "\u0430bc",
    ]);
    expect(duplicates).toBe(3);
    expect(codes.map((c) => [c.idx, c.code, c.occurrences, c.refused])).toEqual([
      [0, code(1), 2, false],
      [1, code(2), 2, false],
      [2, "\u0430bc", 2, true],
    ]);
    expect(codes[2]!.reason).toContain("Cyrillic");
  });
});

describe("allowanceDecision", () => {
  const use = {
    jobs: [
      { createdAt: T0.toISOString(), charged: 600 },
      { createdAt: later(600_000).toISOString(), charged: 300 },
    ],
  };
  it("allows what fits", () => {
    expect(allowanceDecision(1000, use, 100)).toEqual({ allowed: true, left: 100 });
  });
  it("names the moment enough of the window has passed: the oldest jobs leave it first", () => {
    expect(allowanceDecision(1000, use, 101)).toEqual({
      allowed: false,
      left: 100,
      limit: 1000,
      needed: 101,
      runAt: later(3_600_000),
    });
    expect(allowanceDecision(1000, use, 800)).toEqual({
      allowed: false,
      left: 100,
      limit: 1000,
      needed: 800,
      runAt: later(3_600_000 + 600_000),
    });
  });
  it("has no moment for a batch larger than the whole allowance", () => {
    expect(allowanceDecision(1000, { jobs: [] }, 1001)).toMatchObject({ allowed: false, runAt: null });
  });
});

let postgres: TestPostgres | undefined;
let sandbox: TestSandbox;
const pgBackend = postgresBackend(() => {
  if (!postgres) throw new Error("PostgreSQL did not start");
  return postgres;
});
beforeAll(async () => {
  [postgres, sandbox] = await Promise.all([
    startTestPostgres(),
    startTestSandbox({ extraKeys: { items: { [CANARY.items]: "main" } } }),
  ]);
});
afterAll(async () => {
  await pgBackend.dispose();
  await postgres?.stop();
  await sandbox?.close();
});

const sandboxItems = () =>
  createItemsClient(
    { baseUrl: sandbox.itemsBaseUrl, apiKey: CANARY.items, keyLocation: { kind: "query-and-form" } },
    { timeoutMs: 5000 },
  );

describe.each<Backend>([sqliteBackend, pgBackend])("bulk jobs on $name", (backend) => {
  const store = useStore(backend);
  const create = (user: typeof ALICE, rawCodes: string[], now = T0, limitPerHour = 1000) =>
    createBulkJob(store().db, KEY, { user, rawCodes, limitPerHour, now });

  it("keeps codes sealed at rest, with their hash and last 4; the API view opens them", async () => {
    const created = await create(ALICE, [code(1), code(2)]);
    if (!created.ok) throw new Error("refused");
    const rows = await store().db.selectFrom("bulk_job_codes").selectAll().orderBy("idx").execute();
    expect(JSON.stringify(rows)).not.toContain(code(1));
    expect(rows[0]).toMatchObject({
      code_hash: hashPurchaseCode(code(1), KEY),
      code_last4: "0001",
      status: "pending",
      refused: 0,
    });
    const job = await findBulkJob(store().db, KEY, created.id, { userId: ALICE.id }, { now: T0.getTime() });
    expect(job).toMatchObject({
      status: "queued",
      total: 2,
      done: 0,
      expires_at: later(BULK_JOB_RETENTION_MS).toISOString(),
    });
    expect(job!.results.map((r) => r.code)).toEqual([code(1), code(2)]);
    // Someone else's job is not found; an admin (userId null) finds it.
    expect(await findBulkJob(store().db, KEY, created.id, { userId: BOB.id })).toBeNull();
    expect(await findBulkJob(store().db, KEY, created.id, { userId: null })).not.toBeNull();
    // Another key cannot open the codes: the API shows the last 4 only.
    const other = await findBulkJob(store().db, "another-key-0123456789abcdef-xyz", created.id, { userId: null });
    expect(other!.results[0]!.code).toBe("…0001");
  });

  it("charges the allowance per user for every code sent, refused ones too, and gives back what a cancel left unchecked", async () => {
    const first = await create(
      ALICE,
      Array.from({ length: 8 }, (_, n) => code(n)),
      T0,
      10,
    );
    expect(first.ok).toBe(true);
    const refused = await create(
      ALICE,
      Array.from({ length: 3 }, (_, n) => code(100 + n)),
      later(1000),
      10,
    );
    expect(refused).toMatchObject({ ok: false, decision: { left: 2, needed: 3, runAt: later(3_600_000) } });
    expect((await create(BOB, [code(1)], later(1000), 10)).ok).toBe(true);
    // Codes the normaliser refuses cost no upstream call, but they are not free: 3 do not fit in 2.
    expect(await create(ALICE, ["\u0430bc", "\u0430bd", "\u0430be"], later(1000), 10)).toMatchObject({
      ok: false,
      decision: { left: 2, needed: 3 },
    });
    expect((await create(ALICE, ["\u0430bc", "\u0430bd"], later(1000), 10)).ok).toBe(true);
    if (!first.ok) return;
    // Two checked, the rest cancelled: 2 charged.
    await recordBulkResult(store().db, first.id, 0, { status: "invalid", reason: "Invalid purchase code" });
    await recordBulkResult(store().db, first.id, 1, { status: "invalid", reason: "Invalid purchase code" });
    expect(await cancelBulkJob(store().db, first.id, { userId: ALICE.id }, later(2000))).toBe(true);
    expect(await allowanceUse(store().db, ALICE.id, later(3000))).toEqual({
      jobs: [
        { createdAt: T0.toISOString(), charged: 2 },
        { createdAt: later(1000).toISOString(), charged: 2 },
      ],
    });
    expect(
      (
        await create(
          ALICE,
          Array.from({ length: 6 }, (_, n) => code(200 + n)),
          later(3000),
          10,
        )
      ).ok,
    ).toBe(true);
    // An hour later the first job no longer counts.
    expect((await allowanceUse(store().db, ALICE.id, later(3_600_000))).jobs.map((j) => j.charged)).toEqual([2, 6]);
  });

  it("keeps a refused code short: never more than a real code's 100 characters of it", async () => {
    const junk = "\u0430".repeat(1000);
    const created = await create(ALICE, [junk, `${"x".repeat(150)}\u0007`]);
    if (!created.ok) throw new Error("refused");
    const job = await findBulkJob(store().db, KEY, created.id, { userId: null });
    expect(job?.results.map((r) => [r.status, Array.from(r.code).length])).toEqual([
      ["invalid", 101],
      ["invalid", 101],
    ]);
    expect(job?.results[0]?.code.endsWith("…")).toBe(true);
  });

  it("refuses a user's job past 200 in 24 hours, saying when the next may start; others are not affected", async () => {
    for (let n = 0; n < 200; n++)
      expect((await create(ALICE, [`junk-${n}-\u0007`], later(n * 1000), 1_000_000)).ok).toBe(true);
    expect(await create(ALICE, ["junk-201-\u0007"], later(300_000), 1_000_000)).toEqual({
      ok: false,
      tooManyJobs: { jobsPerDay: 200, runAt: later(86_400_000) },
    });
    expect((await create(BOB, ["junk-bob-\u0007"], later(300_000), 1_000_000)).ok).toBe(true);
    expect((await create(ALICE, ["junk-202-\u0007"], later(86_400_001), 1_000_000)).ok).toBe(true);
  });

  it("batches sent at once by one user never overdraw the allowance", async () => {
    const batch = (from: number) => Array.from({ length: 3 }, (_, n) => code(from + n));
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => create(ALICE, batch(i * 100), T0, 10)));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
  });

  it("checks a job a batch of 3 codes a run, running from its first run, until none is pending", async () => {
    const created = await create(ALICE, [code(1), code(2), code(3), code(4), code(5)]);
    if (!created.ok) throw new Error("refused");
    const lane = bulkCheckJob({ db: async () => store().db, hashKey: () => KEY, items: async () => sandboxItems() });
    const run = { id: laneId(created.id), retries: 0 };
    expect(await lane.handle({ job: created.id }, run)).toEqual({ kind: "continue" });
    const job = await findBulkJob(store().db, KEY, created.id, { userId: null });
    expect(job).toMatchObject({ status: "running", done: 3, started_at: expect.any(String) });
    expect(await lane.handle({ job: created.id }, run)).toEqual({ kind: "done" });
    expect(await findBulkJob(store().db, KEY, created.id, { userId: null })).toMatchObject({
      status: "done",
      done: 5,
      started_at: job!.started_at,
    });
  });

  it("writes a result once; a cancel ends the pending codes; a finished job stays as it is", async () => {
    const created = await create(ALICE, [code(1), code(2), code(3)]);
    if (!created.ok) throw new Error("refused");
    const { db } = store();
    expect(await recordBulkResult(db, created.id, 0, { status: "invalid", reason: "Invalid purchase code" })).toBe(
      true,
    );
    expect(await recordBulkResult(db, created.id, 0, { status: "failed", reason: "late" })).toBe(false);
    expect(await cancelBulkJob(db, created.id, { userId: BOB.id })).toBe(false);
    expect(await cancelBulkJob(db, created.id, { userId: ALICE.id }, later(1000))).toBe(true);
    expect((await pendingCodes(db, created.id)).length).toBe(0);
    const job = await findBulkJob(db, KEY, created.id, { userId: null });
    expect(job).toMatchObject({
      status: "cancelled",
      done: 1,
      invalid: 1,
      cancelled: 2,
      settling: false,
      finished_at: later(1000).toISOString(),
    });
    // A late answer for a code the cancel ended is not written over it: the counts shown stay the counts.
    expect(await recordBulkResult(db, created.id, 1, { status: "invalid", reason: "Invalid purchase code" })).toBe(
      false,
    );
    expect(await beginCheck(db, created.id, 2)).toBe(false);
    expect(await cancelBulkJob(db, created.id, { userId: ALICE.id }, later(2000))).toBe(true);
    expect(await findBulkJob(db, KEY, created.id, { userId: null })).toMatchObject({
      status: "cancelled",
      done: 1,
      cancelled: 2,
    });
  });

  it("lets a check under way at a cancel write its result: the job settles once, and its counts never change after", async () => {
    const created = await create(ALICE, [code(1), code(2), code(3), code(4)]);
    if (!created.ok) throw new Error("refused");
    const { db } = store();
    expect(await beginCheck(db, created.id, 0, T0)).toBe(true);
    expect(await beginCheck(db, created.id, 1, T0)).toBe(true);
    expect(await recordBulkResult(db, created.id, 1, { status: "invalid", reason: "Invalid purchase code" })).toBe(
      true,
    );
    expect(await cancelBulkJob(db, created.id, { userId: ALICE.id }, later(1000))).toBe(true);
    // Code 0 is under way: it stays pending, and the job says it is settling.
    let job = await findBulkJob(db, KEY, created.id, { userId: null });
    expect(job).toMatchObject({ status: "cancelled", done: 1, cancelled: 2, settling: true });
    expect(job?.results.map((r) => r.status)).toEqual(["pending", "invalid", "cancelled", "cancelled"]);
    expect(await recordBulkResult(db, created.id, 0, { status: "invalid", reason: "Invalid purchase code" })).toBe(
      true,
    );
    job = await findBulkJob(db, KEY, created.id, { userId: null });
    expect(job).toMatchObject({ status: "cancelled", done: 2, cancelled: 2, settling: false });
  });

  it("ends the codes of a cancelled job whose check a dead process left under way, once no check can still be running", async () => {
    const created = await create(ALICE, [code(1), code(2)]);
    if (!created.ok) throw new Error("refused");
    const { db } = store();
    expect(await beginCheck(db, created.id, 0, T0)).toBe(true);
    // A check that gave up its try (a backoff) is no longer under way: the cancel ends its code.
    expect(await beginCheck(db, created.id, 1, T0)).toBe(true);
    await countAttempt(db, created.id, 1);
    expect(await cancelBulkJob(db, created.id, { userId: ALICE.id }, later(1000))).toBe(true);
    expect(await findBulkJob(db, KEY, created.id, { userId: null })).toMatchObject({
      done: 0,
      cancelled: 1,
      settling: true,
    });
    expect(await settleCancelledJobs(db, later(CHECK_UNDER_WAY_MAX_MS - 1))).toBe(0);
    expect(await settleCancelledJobs(db, later(CHECK_UNDER_WAY_MAX_MS + 1))).toBe(1);
    expect(await findBulkJob(db, KEY, created.id, { userId: null })).toMatchObject({
      done: 0,
      cancelled: 2,
      settling: false,
    });
  });

  it("lists a user's jobs newest first, and forgets jobs after 7 days", async () => {
    const old = await create(ALICE, [code(1)], T0);
    const recent = await create(ALICE, [code(2)], later(86_400_000));
    await create(BOB, [code(3)], later(86_400_000));
    if (!old.ok || !recent.ok) throw new Error("refused");
    const now = later(BULK_JOB_RETENTION_MS + 1000).getTime();
    expect(
      (await listBulkJobs(store().db, { userId: ALICE.id }, { now: T0.getTime() + 2 * 86_400_000 })).map((j) => j.id),
    ).toEqual([recent.id, old.id]);
    expect(await purgeExpiredBulkJobs(store().db, new Date(now))).toBe(1);
    expect((await listBulkJobs(store().db, { userId: null }, { now })).length).toBe(2);
    expect(
      await store().db.selectFrom("bulk_job_codes").select("job_id").where("job_id", "=", old.id).execute(),
    ).toEqual([]);
  });

  it("the store's job provider checks a job against the item service and finishes it", async () => {
    const created = await createBulkJob(store().db, KEY, {
      user: ALICE,
      rawCodes: [FIXED_PURCHASE_CODES.active, code(1), FIXED_PURCHASE_CODES.expired, code(2), "\u0430bc"],
      limitPerHour: 1000,
    });
    if (!created.ok) throw new Error("refused");
    const jobs = startStoreJobs(
      async () => store().db,
      [bulkCheckJob({ db: async () => store().db, hashKey: () => KEY, items: async () => sandboxItems() })],
    );
    try {
      await jobs.trigger("bulk-check", { job: created.id }, { id: laneId(created.id) });
      const job = await until(async () => {
        const found = await findBulkJob(store().db, KEY, created.id, { userId: null });
        return found?.status === "done" ? found : null;
      }, "the job is done");
      // The Cyrillic "аbc" was refused before any call: not an invalid purchase.
      expect(job).toMatchObject({ status: "done", total: 5, valid: 2, invalid: 2, refused: 1, failed: 0 });
      expect(job.results.map((r) => r.status)).toEqual(["valid", "invalid", "valid", "invalid", "invalid"]);
      // Every check that reached the upstream is in the history, marked as bulk.
      const history = await store()
        .db.selectFrom("purchase_checks")
        .select(["outcome", "source", "bulk_job_id"])
        .execute();
      expect(history).toHaveLength(4);
      expect(history.every((row) => row.source === "bulk" && row.bulk_job_id === created.id)).toBe(true);
    } finally {
      await jobs.stop();
    }
    // A stopped provider let go of its leases.
    expect(
      await store().db.selectFrom("jobs").select("lease_owner").where("lease_owner", "is not", null).execute(),
    ).toEqual([]);
  });
});
