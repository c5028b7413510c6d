// Bulk purchase checks over real HTTP (next start ↔ sandbox): a 200-code run with injected latency and 429s in
// which every code ends valid, invalid or failed with a reason and progress never goes back; cancel; failures;
// who sees which job; the hourly allowance; input errors; and a job that survives a restart of the server.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { BulkJobSchema, BulkJobSummarySchema, type BulkJob, type BulkJobSummary } from "@/lib/contract/purchases";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { seedSellers } from "@/lib/sandbox/seed";

import {
  sandboxEnv,
  startGateway,
  TEST_USER_PASSWORD,
  type GatewayProcess,
  type SignedInClient,
} from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const VALIDATION_PATH = "/market/api/purchases/validation";
/** Per user per hour, low enough that the allowance tests reach it. */
const ALLOWANCE = 250;

const {
  sandbox,
  gateway,
  clients: { support, editor, admin },
} = setUpGateway({
  signIn: ["support", "editor", "admin"],
  env: { PURCHASE_BULK_LIMIT_PER_HOUR: String(ALLOWANCE) },
  assertNoKeyLeaked: true,
});
/** Where the restart test's two servers keep their one store. */
let workDir: string;

// The sold codes but the one added for the code formats' tests, so that the batches below keep their sizes.
const VALID_CODES = [...seedSellers().main.purchases.keys()].filter((code) => code !== FIXED_PURCHASE_CODES.letters);
/** Codes no seller sold: the item service answers "Invalid purchase code". */
const unknownCode = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

function env(databaseUrl: string) {
  return sandboxEnv(sandbox, { DATABASE_URL: databaseUrl, PURCHASE_BULK_LIMIT_PER_HOUR: String(ALLOWANCE) });
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "gatehouse-bulk-"));
});
afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await sandbox.clearFaults();
  await sandbox.clearRequests();
});

async function createJob(client: SignedInClient, codes: string[]): Promise<BulkJobSummary> {
  const res = await client.request("/api/purchases/bulk", json({ codes }));
  expect(res.status, res.text).toBe(202);
  return BulkJobSummarySchema.parse(res.json.data);
}

async function getJob(client: SignedInClient, id: string): Promise<BulkJob> {
  const res = await client.request(`/api/purchases/bulk/${id}`);
  expect(res.status, res.text).toBe(200);
  return BulkJobSchema.parse(res.json.data);
}

/** Polls until the job ends, checking on every poll that no count goes back; returns every state seen. */
async function followJob(client: SignedInClient, id: string, { timeoutMs = 60_000 } = {}): Promise<BulkJob[]> {
  const seen: BulkJob[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(client, id);
    const previous = seen.at(-1);
    if (previous) {
      for (const count of ["done", "valid", "invalid", "failed"] as const)
        expect(job[count], count).toBeGreaterThanOrEqual(previous[count]);
    }
    expect(job.done).toBe(job.valid + job.invalid + job.failed);
    expect(job.results.filter((r) => r.status === "pending").length).toBe(job.total - job.done - job.cancelled);
    seen.push(job);
    if (job.status === "done" || job.status === "cancelled") return seen;
    if (Date.now() > deadline)
      throw new Error(`job ${id} still ${job.status} (${job.done}/${job.total}) after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** The purchase codes the item service was asked about, in arrival order. */
async function upstreamChecks(): Promise<Array<{ code: string; at: number }>> {
  return (await sandbox.requests())
    .filter((r) => r.method === "POST" && r.path === VALIDATION_PATH)
    .map((r) => ({ code: String(r.form?.purchase_code), at: Date.parse(r.at) }));
}

describe("a bulk run of 200 codes with latency and 429s", () => {
  it("ends every code valid or invalid with a reason, loses none, waits out the 429s, keeps 3 calls at most in flight", async () => {
    const LATENCY_MS = 40;
    const lookalikes = Array.from({ length: 8 }, (_, n) => unknownCode(1000 + n).replace(/^0/, "\u0430")); // Cyrillic "а"
    const unknown = Array.from({ length: 150 }, (_, n) => unknownCode(n));
    // Duplicates as people paste them: the same code again, with spaces around or a zero-width space inside.
    const duplicates = [
      ` ${VALID_CODES[0]} `,
      VALID_CODES[1]!,
      `${VALID_CODES[2]!.slice(0, 4)}\u200b${VALID_CODES[2]!.slice(4)}`,
      unknown[0]!,
      unknown[1]!,
      VALID_CODES[3]!,
    ];
    const batch = [...VALID_CODES, ...unknown.slice(0, 75), ...lookalikes, ...duplicates, ...unknown.slice(75)];
    expect(batch).toHaveLength(VALID_CODES.length + 150 + 8 + 6);
    expect(batch.length).toBe(200);

    // Two 429s at once, then latency on every call (the sandbox plays the first fault that matches).
    await sandbox.injectFault({
      method: "POST",
      path: VALIDATION_PATH,
      kind: "status",
      status: 429,
      headers: { "Retry-After": "1" },
      latencyMs: LATENCY_MS,
      times: 2,
    });
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "latency", latencyMs: LATENCY_MS });

    const created = await createJob(support, batch);
    // The look-alikes are refused at once, without a call, and are no invalid purchases.
    expect(created).toMatchObject({
      status: "queued",
      total: 194,
      duplicates: 6,
      done: 8,
      invalid: 0,
      refused: 8,
      created_by: { email: support.user.email },
    });

    // Three more 429s in the middle of the run.
    let midRunFaults = false;
    const states: BulkJob[] = [];
    const deadline = Date.now() + 90_000;
    for (;;) {
      const job = await getJob(support, created.id);
      const previous = states.at(-1);
      if (previous)
        for (const count of ["done", "valid", "invalid", "failed"] as const)
          expect(job[count], count).toBeGreaterThanOrEqual(previous[count]);
      expect(job.done).toBe(job.valid + job.invalid + job.refused + job.failed);
      states.push(job);
      if (!midRunFaults && job.done >= 90) {
        midRunFaults = true;
        // In one step: a clear and two adds would leave a moment with no latency, and a window with 4 arrivals.
        await sandbox.replaceFaults([
          {
            method: "POST",
            path: VALIDATION_PATH,
            kind: "status",
            status: 429,
            headers: { "Retry-After": "1" },
            latencyMs: LATENCY_MS,
            times: 3,
          },
          { method: "POST", path: VALIDATION_PATH, kind: "latency", latencyMs: LATENCY_MS },
        ]);
      }
      if (job.status === "done") break;
      if (Date.now() > deadline) throw new Error(`still ${job.status} at ${job.done}/${job.total}`);
      await sleep(100);
    }
    expect(midRunFaults).toBe(true);

    const job = states.at(-1)!;
    expect(job).toMatchObject({
      status: "done",
      total: 194,
      done: 194,
      valid: VALID_CODES.length,
      invalid: 194 - VALID_CODES.length - 8,
      refused: 8,
      failed: 0,
      cancelled: 0,
    });
    expect(job.finished_at).not.toBeNull();
    // The 429s showed as a wait, with the time it ends; and the estimate existed while it ran.
    expect(states.some((s) => s.status === "waiting" && s.waiting_until !== null)).toBe(true);
    expect(states.some((s) => s.status !== "done" && s.eta_seconds !== null && s.eta_seconds > 0)).toBe(true);

    // None lost: every distinct cleaned code has one result, in batch order.
    const expectedCodes = [...VALID_CODES, ...unknown.slice(0, 75), ...lookalikes, ...unknown.slice(75)];
    expect(job.results.map((r) => r.code)).toEqual(expectedCodes);
    expect(job.results.map((r) => r.index)).toEqual(expectedCodes.map((_, i) => i));
    const byCode = new Map(job.results.map((r) => [r.code, r]));
    for (const code of VALID_CODES) {
      const result = byCode.get(code)!;
      expect(result.status).toBe("valid");
      expect(result.item_name).toEqual(expect.any(String));
      expect(result.license_type).toEqual(expect.any(String));
      expect(result.checked_at).not.toBeNull();
    }
    expect(byCode.get(FIXED_PURCHASE_CODES.active)!.supported_until).not.toBeNull();
    for (const code of unknown)
      expect(byCode.get(code)).toMatchObject({
        status: "invalid",
        reason: expect.stringMatching(/invalid purchase code/i),
      });
    for (const code of lookalikes) {
      expect(byCode.get(code)).toMatchObject({ status: "invalid", reason: expect.stringContaining("Cyrillic") });
    }
    expect(byCode.get(VALID_CODES[0]!)!.occurrences).toBe(2);
    expect(byCode.get(VALID_CODES[2]!)!.occurrences).toBe(2);
    expect(byCode.get(unknown[0]!)!.occurrences).toBe(2);

    // Upstream: each code that could be cleaned was asked about; only the five 429'd ones twice; look-alikes never.
    const checks = await upstreamChecks();
    const asked = new Map<string, number>();
    for (const { code } of checks) asked.set(code, (asked.get(code) ?? 0) + 1);
    expect(new Set(asked.keys())).toEqual(new Set([...VALID_CODES, ...unknown]));
    expect(checks).toHaveLength(VALID_CODES.length + unknown.length + 5);
    expect([...asked.values()].filter((n) => n === 2)).toHaveLength(5);
    // Retry-After honoured: after the first two 429s (the first two arrivals), nothing was sent for a second.
    expect(checks[3]!.at - checks[1]!.at).toBeGreaterThanOrEqual(990);
    // At most 3 calls in flight: every call takes LATENCY_MS, so no window that long holds more than 3 arrivals.
    for (let i = 3; i < checks.length; i += 1) {
      expect(checks[i]!.at - checks[i - 3]!.at, `arrival ${i}`).toBeGreaterThanOrEqual(LATENCY_MS - 2);
    }

    // The CSV: a header and a row per distinct code, in batch order.
    const csv = await support.request(`/api/purchases/bulk/${created.id}.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="bulk-check-${created.id}.csv"`);
    const lines = csv.text
      .replace(/^\ufeff/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(
      "position,code,occurrences,status,reason,item_id,item_name,license_type,supported_until,support,checked_at,notes,previously_valid_at,last_verdict,last_verdict_at",
    );
    expect(lines).toHaveLength(195);
    expect(lines[1]).toMatch(new RegExp(`^1,${VALID_CODES[0]},2,valid,,\\d+,`));

    // Every checked code is in the history, found by its full code.
    const found = await support.request("/api/purchases/history/search", json({ code: unknown[42]! }));
    expect(found.status, found.text).toBe(200);
    expect(found.json.data).toEqual([
      expect.objectContaining({
        outcome: "invalid",
        source: "bulk",
        bulk_job_id: created.id,
        code_last4: unknown[42]!.slice(-4),
      }),
    ]);
    const mine = await support.request(
      `/api/purchases/history?user=${encodeURIComponent(support.user.email)}&per_page=10`,
    );
    expect(mine.json.meta.total).toBe(VALID_CODES.length + unknown.length);
  }, 120_000);
});

describe("cancel", () => {
  it("stops a running job: checks in flight finish, the rest end cancelled, and the upstream hears nothing more", async () => {
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "latency", latencyMs: 300 });
    const codes = Array.from({ length: 40 }, (_, n) => unknownCode(5000 + n));
    const created = await createJob(editor, codes);
    let job = await getJob(editor, created.id);
    while (job.done < 3) {
      await sleep(50);
      job = await getJob(editor, created.id);
    }
    const cancel = await editor.request(`/api/purchases/bulk/${created.id}`, { method: "DELETE" });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.json.data.status).toBe("cancelled");

    // Checks under way at the cancel finish: the job says it is settling until each has written its result.
    const asked = async () => (await upstreamChecks()).map((c) => c.code).filter((code) => codes.includes(code));
    const checked = (job: BulkJob) => job.results.filter((r) => r.status !== "cancelled").map((r) => r.code);
    let final = await getJob(editor, created.id);
    for (const deadline = Date.now() + 20_000; final.settling;) {
      if (Date.now() > deadline)
        throw new Error(`still settling: ${final.total - final.done - final.cancelled} checks under way`);
      await sleep(50);
      final = await getJob(editor, created.id);
    }
    expect(final.results.some((r) => r.status === "pending")).toBe(false);
    // A barrier rather than a pause: a job created after the cancel runs to its end, so the job system, which takes
    // the jobs in turn, has passed the cancelled one since; the item service heard of no other code of it.
    const sentAtCancel = await asked();
    const barrier = await createJob(editor, [unknownCode(5100)]);
    expect((await followJob(editor, barrier.id)).at(-1)).toMatchObject({ status: "done", done: 1 });
    expect(await asked()).toEqual(sentAtCancel);
    // Each code asked about once, and only those that ended with a result; at most 3 were in flight at the cancel.
    expect(new Set(sentAtCancel).size).toBe(sentAtCancel.length);
    expect([...sentAtCancel].sort()).toEqual([...checked(final)].sort());

    expect(final.status).toBe("cancelled");
    expect(final.done + final.cancelled).toBe(40);
    expect(final.done).toBeGreaterThanOrEqual(job.done);
    expect(final.cancelled).toBeGreaterThan(0);
    for (const result of final.results.filter((r) => r.status === "cancelled"))
      expect(result.reason).toMatch(/cancelled/);

    // Cancelling again changes nothing.
    const again = await editor.request(`/api/purchases/bulk/${created.id}`, { method: "DELETE" });
    expect(again.status).toBe(200);
    expect(again.json.data).toMatchObject({ status: "cancelled", done: final.done, cancelled: final.cancelled });
  }, 30_000);
});

describe("failures", () => {
  it("a code the item service keeps failing on ends failed with the reason, after 3 tries", async () => {
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 500 });
    const created = await createJob(admin, [unknownCode(7000), unknownCode(7001)]);
    const job = (await followJob(admin, created.id)).at(-1)!;
    expect(job).toMatchObject({ status: "done", failed: 2, valid: 0, invalid: 0 });
    for (const result of job.results)
      expect(result.reason).toMatch(/^The item service answered with an error .*, after 3 tries\.$/);
    expect(await upstreamChecks()).toHaveLength(6);
    // A failed check is in the history too, with its reason.
    const history = await admin.request("/api/purchases/history/search", json({ code: unknownCode(7000) }));
    expect(history.json.data).toEqual([
      expect.objectContaining({ outcome: "failed", reason: expect.stringContaining("after 3 tries") }),
    ]);
  }, 30_000);

  it("a transient failure is tried again and the code ends with its real answer", async () => {
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 503, times: 1 });
    const created = await createJob(admin, [FIXED_PURCHASE_CODES.active]);
    const job = (await followJob(admin, created.id)).at(-1)!;
    expect(job).toMatchObject({ status: "done", valid: 1, failed: 0 });
    expect(await upstreamChecks()).toHaveLength(2);
  }, 30_000);
});

describe("who sees which job", () => {
  it("a user sees his own jobs, an admin everyone's; others get 404; a viewer may not use bulk at all", async () => {
    const own = await createJob(support, [FIXED_PURCHASE_CODES.expired]);
    await followJob(support, own.id);

    expect((await editor.request(`/api/purchases/bulk/${own.id}`)).status).toBe(404);
    expect((await editor.request(`/api/purchases/bulk/${own.id}.csv`)).status).toBe(404);
    const foreignCancel = await editor.request(`/api/purchases/bulk/${own.id}`, { method: "DELETE" });
    expect(foreignCancel.status).toBe(404);
    expect(foreignCancel.json.error.message).toBe(`There is no bulk job ${own.id} (jobs are kept 7 days).`);
    expect((await admin.request(`/api/purchases/bulk/${own.id}`)).status).toBe(200);

    const supportList = await support.request("/api/purchases/bulk");
    expect(supportList.status).toBe(200);
    expect(supportList.json.data.length).toBeGreaterThan(0);
    expect(supportList.json.data.every((job: BulkJobSummary) => job.created_by.id === support.user.id)).toBe(true);
    const adminList = await admin.request("/api/purchases/bulk");
    const creators = new Set(adminList.json.data.map((job: BulkJobSummary) => job.created_by.id));
    expect(creators.has(support.user.id) && creators.has(admin.user.id)).toBe(true);

    const viewer = await gateway.signIn("viewer");
    expect((await viewer.request("/api/purchases/bulk", json({ codes: [FIXED_PURCHASE_CODES.active] }))).status).toBe(
      403,
    );
    expect((await viewer.request("/api/purchases/bulk")).status).toBe(403);
    expect((await gateway.request(`/api/purchases/bulk/${own.id}`)).status).toBe(401);
  }, 30_000);
});

describe("input", () => {
  it.each([
    ["no codes", { codes: [] }, /at least one/],
    ["more than 500", { codes: Array.from({ length: 501 }, (_, n) => unknownCode(n)) }, /at most 500/],
    ["not a list", { codes: "abc" }, /list of purchase codes/],
    ["a code that is not a string", { codes: [42] }, /string/],
  ])("refuses %s with 400 and fields.codes", async (_name, body, message) => {
    const res = await support.request("/api/purchases/bulk", json(body));
    expect(res.status, res.text).toBe(400);
    expect(Object.values(res.json.error.fields).join(" ")).toMatch(message);
    expect(Object.keys(res.json.error.fields)[0]).toMatch(/^codes/);
  });

  it("refuses an unknown field, a body that is not JSON, and a body over 1 MB", async () => {
    expect((await support.request("/api/purchases/bulk", json({ codes: ["a"], extra: 1 }))).json.error.fields).toEqual({
      extra: "Unknown field.",
    });
    expect(
      (
        await support.request("/api/purchases/bulk", {
          method: "POST",
          headers: { "Content-Type": "text/plain" },
          body: "a",
        })
      ).status,
    ).toBe(415);
    const huge = await support.request(
      "/api/purchases/bulk",
      json({ codes: ["x".repeat(1000)], padding: "y".repeat(1024 * 1024) }),
    );
    expect(huge.status).toBe(413);
  });

  it("answers 404 for a job id that does not exist and 400 for one that is not an id", async () => {
    expect((await support.request(`/api/purchases/bulk/${crypto.randomUUID()}`)).status).toBe(404);
    const bad = await support.request("/api/purchases/bulk/not-an-id");
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.id).toMatch(/bulk job id/);
  });
});

describe("the hourly allowance", () => {
  it("refuses a batch over it up front with the time it could run; refused codes count like the others", async () => {
    const created = await admin.request(
      "/api/admin/users",
      json({ email: "allowance@gatehouse.test", password: TEST_USER_PASSWORD, name: "Allowance", role: "support" }),
    );
    expect(created.status, created.text).toBe(201);
    const user = await gateway.signIn({ email: "allowance@gatehouse.test", password: TEST_USER_PASSWORD });
    const first = await createJob(
      user,
      Array.from({ length: 200 }, (_, n) => unknownCode(10_000 + n)),
    );

    const over = await user.request(
      "/api/purchases/bulk",
      json({ codes: Array.from({ length: 100 }, (_, n) => unknownCode(20_000 + n)) }),
    );
    expect(over.status, over.text).toBe(429);
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const runAt = new Date(Date.parse(first.created_at) + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    expect(over.json.error.message).toBe(
      `This batch needs 100 codes but your bulk allowance has 50 of 250 codes left this hour. It can run at ${runAt} (in 60 minutes), or send at most 50 codes now.`,
    );

    // What is left still runs. Codes the normaliser refuses never reach the upstream, but they count.
    const refusedOnly = await createJob(user, ["\u0430bc-1", "x\u0007y"]);
    expect(refusedOnly).toMatchObject({ status: "done", invalid: 0, refused: 2, done: 2 });
    const oneTooMany = await user.request(
      "/api/purchases/bulk",
      json({ codes: Array.from({ length: 49 }, (_, n) => unknownCode(30_000 + n)) }),
    );
    expect(oneTooMany.status).toBe(429);
    await createJob(
      user,
      Array.from({ length: 48 }, (_, n) => unknownCode(30_000 + n)),
    );

    const never = await user.request(
      "/api/purchases/bulk",
      json({ codes: Array.from({ length: 1 }, (_, n) => unknownCode(40_000 + n)) }),
    );
    expect(never.status).toBe(429);

    // Other users have their own allowance.
    await createJob(editor, [unknownCode(50_000)]);
  }, 60_000);

  it("refuses a batch larger than the whole allowance with 400: it could never run", async () => {
    const small = await startGateway(sandboxEnv(sandbox, { PURCHASE_BULK_LIMIT_PER_HOUR: "5" }));
    try {
      const client = await small.signIn("support");
      const res = await client.request(
        "/api/purchases/bulk",
        json({ codes: Array.from({ length: 6 }, (_, n) => unknownCode(60_000 + n)) }),
      );
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.fields.codes).toBe(
        "This batch has 6 codes to check, more than the bulk allowance of 5 codes an hour. Split it into batches of at most 5 codes.",
      );
    } finally {
      await small.stop();
    }
  }, 60_000);
});

describe("a job survives a restart of the server", () => {
  it("a job interrupted by SIGTERM is resumed by the next server and every code ends with a result", async () => {
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "latency", latencyMs: 150 });
    const databaseUrl = path.join(workDir, "restart.db");
    const first = await startGateway(env(databaseUrl));
    let second: GatewayProcess | undefined;
    try {
      const before = await first.signIn("support");
      const codes = [...VALID_CODES.slice(0, 10), ...Array.from({ length: 20 }, (_, n) => unknownCode(70_000 + n))];
      const created = await createJob(before, codes);
      let job = await getJob(before, created.id);
      while (job.done < 3) {
        await sleep(50);
        job = await getJob(before, created.id);
      }
      await first.stop();
      const doneAtStop = (await upstreamChecks()).length;
      expect(doneAtStop).toBeLessThan(30);

      second = await startGateway(env(databaseUrl));
      const after = await second.signIn({ email: before.user.email, password: TEST_USER_PASSWORD });
      const final = (await followJob(after, created.id)).at(-1)!;
      expect(final).toMatchObject({ status: "done", total: 30, done: 30, valid: 10, invalid: 20, failed: 0 });
      // Each code was asked about once, or twice if its check was cut off by the stop (at most 3 in flight).
      const checks = await upstreamChecks();
      expect(new Set(checks.map((c) => c.code))).toEqual(new Set(codes));
      expect(checks.length).toBeLessThanOrEqual(33);
    } finally {
      await first.stop();
      await second?.stop();
    }
  }, 120_000);
});
