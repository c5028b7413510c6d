// A bulk code's result and its purchase-history row, on SQLite and PostgreSQL: written together or not at all.
// The crash of an instance between the two writes is forced with a trigger that refuses the history insert (the
// second write never lands, as when the process dies after the first): the code must stay pending, and the
// check that repeats it — the job's next run on the store's provider, or another instance's on BullMQ — must leave
// exactly one history row. Before, the result landed alone, nobody checked the code again, and the history lost
// it (issue 28, item 20: a job of 300 results with 299 history rows after kill -9 of an instance).
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { createBulkJob } from "@/lib/purchases/bulk/jobs";
import { startStoreJobs } from "@/lib/jobs/store";
import { bulkCheckJob, laneId } from "@/lib/purchases/bulk/lane";
import { beginCheck, pendingCodes, recordBulkCheck } from "@/lib/purchases/bulk/results";
import { findBulkJob } from "@/lib/purchases/bulk/summaries";
import { isPostgres, type Db } from "@/lib/db";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { createItemsClient, type ItemsClient } from "@/lib/upstream/items";

import { CANARY } from "@/tests/support/canary";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";
import { until } from "@/tests/support/until";

const KEY = "bulk-results-test-key-0123456789abcdef";
const ALICE = { id: "u-alice", email: "alice@example.com" };
const code = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ extraKeys: { items: { [CANARY.items]: "main" } } });
});
afterAll(async () => {
  await sandbox?.close();
});

/** From now on the store refuses every history insert, as if the process died just before writing it. */
async function crashBeforeHistory(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`create or replace function crash_before_history() returns trigger language plpgsql as $$ begin raise exception 'the instance died before its history row'; end $$`.execute(
      db,
    );
    await sql`create trigger crash_before_history before insert on purchase_checks for each row execute function crash_before_history()`.execute(
      db,
    );
  } else {
    await sql`create trigger crash_before_history before insert on purchase_checks begin select raise(abort, 'the instance died before its history row'); end`.execute(
      db,
    );
  }
}

async function noMoreCrashes(db: Db): Promise<void> {
  await sql
    .raw(`drop trigger if exists crash_before_history${isPostgres(db) ? " on purchase_checks" : ""}`)
    .execute(db);
}

function realItems(): ItemsClient {
  return createItemsClient(
    { baseUrl: sandbox.itemsBaseUrl, apiKey: CANARY.items, keyLocation: { kind: "query-and-form" } },
    { timeoutMs: 5000 },
  );
}

/** The real item client; `afterAnswer` runs after each upstream answer, before the caller writes it. */
function itemsThen(afterAnswer: (call: number) => Promise<void>): ItemsClient & { calls: () => number } {
  const items = realItems();
  let calls = 0;
  return Object.assign(Object.create(items) as ItemsClient, {
    async validatePurchase(purchaseCode: string) {
      const answer = await items.validatePurchase(purchaseCode);
      calls += 1;
      await afterAnswer(calls);
      return answer;
    },
    calls: () => calls,
  });
}

const historyOf = async (db: Db, jobId: string) =>
  db
    .selectFrom("purchase_checks")
    .select(["code_last4", "outcome", "source"])
    .where("bulk_job_id", "=", jobId)
    .orderBy("code_last4")
    .execute();

describe.each<Backend>(bothBackends())("a bulk result and its history row on $name", (backend) => {
  const store = useStore(backend);
  afterEach(async () => {
    // PostgreSQL's test database outlives the test: never leave the crash behind.
    await noMoreCrashes(store().db);
  });

  async function oneCodeJob(rawCode: string = FIXED_PURCHASE_CODES.active): Promise<string> {
    const created = await createBulkJob(store().db, KEY, { user: ALICE, rawCodes: [rawCode], limitPerHour: 1000 });
    if (!created.ok) throw new Error("refused");
    return created.id;
  }

  it("are written both or neither; a result already there is not written again, nor its history row", async () => {
    const { db } = store();
    const jobId = await oneCodeJob(code(1));
    const check = {
      jobId,
      idx: 0,
      user: ALICE,
      code: code(1),
      outcome: { status: "invalid", reason: "Invalid purchase code" },
    } as const;
    expect(await beginCheck(db, jobId, 0)).toBe(true);

    await crashBeforeHistory(db);
    await expect(recordBulkCheck(db, KEY, check)).rejects.toThrow(/history row/);
    expect((await pendingCodes(db, jobId)).map((pending) => pending.idx)).toEqual([0]);
    expect(await historyOf(db, jobId)).toEqual([]);

    await noMoreCrashes(db);
    expect(await recordBulkCheck(db, KEY, check)).toBe(true);
    expect(await recordBulkCheck(db, KEY, check)).toBe(false);
    expect(await pendingCodes(db, jobId)).toEqual([]);
    expect(await historyOf(db, jobId)).toEqual([{ code_last4: code(1).slice(-4), outcome: "invalid", source: "bulk" }]);
  });

  it("in process (the store's provider): a crash between the result and its history row leaves the code pending; the job's next run checks it again, and the history holds it once", async () => {
    const { db } = store();
    const jobId = await oneCodeJob();
    // The first answer meets the crash; the repeat finds the store whole again.
    const items = itemsThen(async (call) => (call === 1 ? crashBeforeHistory(db) : noMoreCrashes(db)));
    const jobs = startStoreJobs(
      async () => db,
      [bulkCheckJob({ db: async () => db, hashKey: () => KEY, items: async () => items })],
    );
    try {
      await jobs.trigger("bulk-check", { job: jobId }, { id: laneId(jobId) });
      await until(
        async () => (await findBulkJob(db, KEY, jobId, { userId: null }))?.status === "done",
        "the job is done",
        15_000,
      );
    } finally {
      await jobs.stop();
    }
    expect(await findBulkJob(db, KEY, jobId, { userId: null })).toMatchObject({
      total: 1,
      done: 1,
      valid: 1,
      failed: 0,
    });
    expect(await historyOf(db, jobId)).toEqual([
      { code_last4: FIXED_PURCHASE_CODES.active.slice(-4), outcome: "valid", source: "bulk" },
    ]);
    expect(items.calls()).toBe(2);
  });

  it("queue: an instance that crashes between the result and its history row leaves the code pending; the instance that runs the job next writes both, once", async () => {
    const { db } = store();
    const jobId = await oneCodeJob();
    const crashing = bulkCheckJob({
      db: async () => db,
      hashKey: () => KEY,
      items: async () => itemsThen(() => crashBeforeHistory(db)),
    });
    const survivor = bulkCheckJob({ db: async () => db, hashKey: () => KEY, items: async () => realItems() });
    const run = { id: laneId(jobId), retries: 0 };

    // The code waits a moment before its next try (the store just failed), and the job runs again then.
    expect(await crashing.handle({ job: jobId }, run)).toMatchObject({ kind: "retry" });
    expect((await pendingCodes(db, jobId)).map((pending) => pending.idx)).toEqual([0]);
    await noMoreCrashes(db);
    // BullMQ hands the job of a dead worker to another instance (its stalled check), or the sweep queues it again.
    await until(
      async () => (await survivor.handle({ job: jobId }, run)).kind === "done",
      "the survivor's run",
      15_000,
      100,
    );
    expect(await survivor.handle({ job: jobId }, run)).toEqual({ kind: "done" });

    expect(await findBulkJob(db, KEY, jobId, { userId: null })).toMatchObject({
      status: "done",
      total: 1,
      done: 1,
      valid: 1,
    });
    expect(await historyOf(db, jobId)).toEqual([
      { code_last4: FIXED_PURCHASE_CODES.active.slice(-4), outcome: "valid", source: "bulk" },
    ]);
  });
});
