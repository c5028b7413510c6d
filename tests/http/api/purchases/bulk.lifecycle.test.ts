// Bulk jobs over a purchase's life, over real HTTP (next start ↔ sandbox): a code checked valid, then reversed at the
// sandbox (its control API), reads "revoked" in a bulk job — its row, the job's counts, filter and CSV, the history
// and purchase.revoked sent once, however often it is checked; with the item service down (503s), a code checked
// before keeps its last verdict, marked not fresh, and a code never seen fails as before.
import { setTimeout as sleep } from "node:timers/promises";

import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { BulkJobSchema, BulkResultsPageSchema, type BulkJob } from "@/lib/contract/purchases";
import { seedSellers } from "@/lib/sandbox/seed";

import type { SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const VALIDATION_PATH = "/market/api/purchases/validation";

const {
  sandbox,
  clients: { support, admin },
} = setUpGateway({ signIn: ["support", "admin"], env: { WEBHOOK_ALLOW_PRIVATE: "1" } });

const [REVERSED, STILL_VALID, SEEN_BEFORE] = [...seedSellers().main.purchases.keys()];
/** Codes no seller sold: the item service answers "Invalid purchase code". */
const unknownCode = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

let endpointId: string;

beforeAll(async () => {
  // An endpoint for every purchase event; its deliveries are read back from the store's log (no receiver needed:
  // an event is stored before it is sent).
  const created = await admin.request(
    "/api/admin/webhooks",
    json({ url: "http://127.0.0.1:9/hooks", events: ["purchase.revoked", "bulk_job.finished"] }),
  );
  expect(created.status, created.text).toBe(201);
  endpointId = created.json.data.id;
});
beforeEach(async () => {
  await sandbox.clearFaults();
});

async function check(code: string) {
  const res = await support.request("/api/purchases/validate", json({ purchase_code: code }));
  expect(res.status, res.text).toBe(200);
  return res.json.data as { valid: boolean; stale: boolean };
}

/** Creates a job of `codes` and waits until it has ended. */
async function runJob(client: SignedInClient, codes: string[], timeoutMs = 60_000): Promise<BulkJob> {
  const res = await client.request("/api/purchases/bulk", json({ codes }));
  expect(res.status, res.text).toBe(202);
  const id = res.json.data.id as string;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = BulkJobSchema.parse((await client.request(`/api/purchases/bulk/${id}`)).json.data);
    expect(job.done).toBe(job.valid + job.invalid + job.revoked + job.refused + job.failed);
    if (job.status === "done") return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} (${job.done}/${job.total})`);
    await sleep(200);
  }
}

async function events(type: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
  const res = await admin.request(`/api/admin/webhooks/${endpointId}/deliveries`);
  expect(res.status, res.text).toBe(200);
  return (res.json.data as Array<{ payload: string }>)
    .map((d) => JSON.parse(d.payload) as { type: string; data: Record<string, unknown> })
    .filter((event) => event.type === type);
}

const historyOf = async (code: string) => {
  const res = await support.request("/api/purchases/history/search", json({ code }));
  expect(res.status, res.text).toBe(200);
  return res.json.data as Array<{ outcome: string; source: string; reason: string | null; item_id: number | null }>;
};

describe("a sale reversed after its code was seen valid", () => {
  it("reads revoked in a bulk job: row, counts, filter, CSV, history, and purchase.revoked once", async () => {
    expect((await check(REVERSED!)).valid).toBe(true);
    const bought = seedSellers().main.purchases.get(REVERSED!)!;
    await sandbox.setPurchase(REVERSED!, { reversed: true });
    try {
      const unknown = unknownCode(1);
      const job = await runJob(support, [REVERSED!, STILL_VALID!, unknown]);
      expect(job).toMatchObject({ total: 3, done: 3, valid: 1, revoked: 1, invalid: 1, failed: 0 });
      const revoked = job.results.find((r) => r.code === REVERSED)!;
      expect(revoked).toMatchObject({
        status: "revoked",
        item_id: bought.item.id,
        item_name: bought.item.name,
        license_type: bought.license_type,
        last_verdict: null,
        previously_valid: { item: { id: bought.item.id, name: bought.item.name }, license_type: bought.license_type },
      });
      expect(revoked.reason).toMatch(
        new RegExp(
          `^Valid on \\d{1,2} \\w{3} \\d{4} \\(${bought.license_type}, item .+\\), not valid now: the sale was probably refunded or reversed\\.$`,
        ),
      );
      // A code never seen valid is invalid, as before.
      expect(job.results.find((r) => r.code === unknown)).toMatchObject({ status: "invalid", previously_valid: null });

      // The filter and its count.
      const page = await support.request(`/api/purchases/bulk/${job.id}/results?status=revoked`);
      expect(page.status, page.text).toBe(200);
      const results = BulkResultsPageSchema.parse(page.json);
      expect(results.data.map((r) => r.code)).toEqual([REVERSED]);
      expect(results.counts).toMatchObject({ revoked: 1, invalid: 1, valid: 1, all: 3 });

      // The CSV says revoked, and when it was last valid.
      const csv = (await support.request(`/api/purchases/bulk/${job.id}.csv`)).text.replace(/^\ufeff/, "");
      const [header, ...lines] = csv.trim().split(/\r?\n/);
      const columns = header!.split(",");
      expect(columns).toEqual(expect.arrayContaining(["previously_valid_at", "last_verdict", "last_verdict_at"]));
      const row = lines.find((line) => line.includes(REVERSED!))!;
      expect(row).toContain(",revoked,");
      expect(row).toContain(revoked.previously_valid!.last_valid_at);

      // The history: a bulk row of its own outcome, naming the item bought.
      const history = await historyOf(REVERSED!);
      expect(history[0]).toMatchObject({ outcome: "revoked", source: "bulk", item_id: bought.item.id });

      // bulk_job.finished counts it; purchase.revoked was sent once.
      const finished = (await events("bulk_job.finished")).find((e) => (e.data.job as { id: string }).id === job.id);
      expect(finished?.data.job).toMatchObject({ revoked: 1, valid: 1, invalid: 1 });
      expect(await events("purchase.revoked")).toHaveLength(1);

      // Checked again, in bulk and alone: still revoked, and no second event.
      const again = await runJob(support, [REVERSED!]);
      expect(again).toMatchObject({ revoked: 1, done: 1 });
      expect(await check(REVERSED!)).toMatchObject({ valid: false, stale: false });
      const revokedEvents = await events("purchase.revoked");
      expect(revokedEvents).toHaveLength(1);
      expect(revokedEvents[0]!.data).toMatchObject({ code_last4: REVERSED!.slice(-4) });
      expect(JSON.stringify(revokedEvents[0])).not.toContain(REVERSED);
    } finally {
      await sandbox.setPurchase(REVERSED!, { reversed: false });
    }
  });
});

describe("the item service down during a bulk job", () => {
  it("keeps a known code's last verdict, not fresh, and fails a code never seen", async () => {
    expect((await check(SEEN_BEFORE!)).valid).toBe(true);
    const never = unknownCode(2);
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 503 });
    const job = await runJob(support, [SEEN_BEFORE!, never], 90_000);
    await sandbox.clearFaults();
    expect(job).toMatchObject({ total: 2, done: 2, failed: 2, valid: 0, revoked: 0 });
    const known = job.results.find((r) => r.code === SEEN_BEFORE)!;
    expect(known).toMatchObject({
      status: "failed",
      retryable: true,
      last_verdict: { outcome: "valid", checked_by: support.user.email },
    });
    expect(known.reason).toMatch(
      /^Valid as of .+, checked by .+\. The item API did not answer now: this verdict is not fresh/,
    );
    expect(known.item_name).toBeNull();
    const unseen = job.results.find((r) => r.code === never)!;
    expect(unseen).toMatchObject({ status: "failed", retryable: true, last_verdict: null });
    expect(unseen.reason).not.toMatch(/not fresh/);

    // The history keeps the failure itself (why there was no answer), not the last verdict's words.
    const history = await historyOf(SEEN_BEFORE!);
    expect(history[0]).toMatchObject({ outcome: "failed", source: "bulk" });
    expect(history[0]!.reason).not.toMatch(/not fresh/);

    // The CSV carries the last verdict.
    const csv = (await support.request(`/api/purchases/bulk/${job.id}.csv`)).text;
    const row = csv.split(/\r?\n/).find((line) => line.includes(SEEN_BEFORE!))!;
    expect(row).toContain(`,valid,${known.last_verdict!.checked_at}`);
  });
});
