// Bulk purchase checks in the store: a job row per batch and a row per distinct code, so that a job survives the
// tab that started it and the process that runs it (lib/purchases/bulk-runner.ts takes jobs by lease). Codes are
// sealed at rest (code-seal.ts); only their hash and last 4 characters are readable in the database.
import "server-only";

import { sql } from "kysely";

import { hashPurchaseCode } from "@/lib/auth/audit";
import type { User } from "@/lib/auth/users";
import type { BulkJob, BulkJobSummary, BulkResult, Purchase } from "@/lib/contract/purchases";
import { isPostgres, writeTransaction, type Db } from "@/lib/db";
import type { BulkJobCodeRow, BulkJobRow } from "@/lib/db/schema";
import { redactSecrets } from "@/lib/log";

import { openCode, sealCode } from "./code-seal";
import { csvLine, CSV_BOM } from "./csv";
import { purchaseCodeLast4 } from "@/lib/contract/purchase-code";
import { normalisePurchaseCode } from "./normalise";

export const BULK_JOB_RETENTION_MS = 7 * 86_400_000;
export const BULK_ALLOWANCE_WINDOW_MS = 3_600_000;
/**
 * Jobs one user may start in a rolling 24 hours, whatever their size: with the codes per job (500) and the hourly
 * allowance, it bounds what one account can make the store keep for the 7 days jobs are kept.
 */
export const BULK_MAX_JOBS_PER_DAY = 200;
const DAY_MS = 86_400_000;
/**
 * A refused code is kept (sealed) as sent, to show what was wrong with it — but never more of it than a real
 * code can have (100 characters): one kilobyte of junk per line must not cost a kilobyte of store per line.
 */
export const STORED_REFUSED_CODE_MAX = 100;
const ACTIVE_STATUSES = ["queued", "running", "waiting"] as const;

export interface BulkUser {
  id: string;
  email: string;
}

/** One distinct code of a batch, as cleaned by the normaliser (or refused by it, with the reason). */
export interface PreparedCode {
  idx: number;
  /** The cleaned code; the code as sent (trimmed) when the normaliser refused it. */
  code: string;
  occurrences: number;
  refused: boolean;
  reason: string | null;
  notes: string[];
}

/** Cleans every code and merges duplicates (same cleaned code), keeping the order of first appearance. */
export function prepareBatch(rawCodes: readonly string[]): { codes: PreparedCode[]; duplicates: number } {
  const byCode = new Map<string, PreparedCode>();
  for (const raw of rawCodes) {
    const result = normalisePurchaseCode(raw);
    const code = result.ok ? result.code : shortened(raw.trim());
    const seen = byCode.get(code);
    if (seen) {
      seen.occurrences += 1;
      continue;
    }
    byCode.set(code, {
      idx: byCode.size,
      code,
      occurrences: 1,
      refused: !result.ok,
      reason: result.ok ? null : result.reason,
      notes: result.ok ? result.notes : [],
    });
  }
  return { codes: [...byCode.values()], duplicates: rawCodes.length - byCode.size };
}

function shortened(text: string): string {
  const chars = Array.from(text);
  return chars.length <= STORED_REFUSED_CODE_MAX ? text : `${chars.slice(0, STORED_REFUSED_CODE_MAX).join("")}…`;
}

// ---------------------------------------------------------------------------------------------------------
// The hourly allowance

export interface AllowanceUse {
  /** Checks charged in the window, by job, oldest first: a job's charge leaves the window an hour after it began. */
  jobs: Array<{ createdAt: string; charged: number }>;
}

export type AllowanceDecision =
  | { allowed: true; left: number }
  | { allowed: false; left: number; limit: number; needed: number; runAt: Date | null };

/**
 * Codes a user submitted through bulk jobs in the last hour. Every distinct code counts, refused ones too: they
 * cost no upstream call, but they cost the store, and a free kind of input is a free way to fill it. Codes a
 * cancel left unchecked were never sent: they are given back.
 */
export async function allowanceUse(db: Db, userId: string, now: Date): Promise<AllowanceUse> {
  const since = new Date(now.getTime() - BULK_ALLOWANCE_WINDOW_MS).toISOString();
  const rows = await db
    .selectFrom("bulk_jobs as j")
    .innerJoin("bulk_job_codes as c", "c.job_id", "j.id")
    .select((eb) => ["j.created_at as createdAt", eb.fn.countAll().as("charged")])
    .where("j.user_id", "=", userId)
    .where("j.created_at", ">", since)
    .where("c.status", "!=", "cancelled")
    .groupBy(["j.id", "j.created_at"])
    .orderBy("j.created_at", "asc")
    .execute();
  // PostgreSQL returns count(*) as a BIGINT string.
  return { jobs: rows.map((row) => ({ createdAt: row.createdAt, charged: Number(row.charged) })) };
}

/** Whether `needed` more checks fit the allowance now, and if not, the first moment they would. */
export function allowanceDecision(limit: number, use: AllowanceUse, needed: number): AllowanceDecision {
  const used = use.jobs.reduce((sum, job) => sum + job.charged, 0);
  const left = Math.max(0, limit - used);
  if (needed <= left) return { allowed: true, left };
  if (needed > limit) return { allowed: false, left, limit, needed, runAt: null };
  // Jobs leave the window oldest first; the batch fits once enough of them have.
  let stillUsed = used;
  for (const job of use.jobs) {
    stillUsed -= job.charged;
    if (stillUsed + needed <= limit) {
      return { allowed: false, left, limit, needed, runAt: new Date(Date.parse(job.createdAt) + BULK_ALLOWANCE_WINDOW_MS) };
    }
  }
  return { allowed: false, left, limit, needed, runAt: null };
}

// ---------------------------------------------------------------------------------------------------------
// Jobs as the API shows them

interface Counts {
  pending: number;
  valid: number;
  invalid: number;
  failed: number;
  cancelled: number;
}

async function countsOf(db: Db, jobIds: string[]): Promise<Map<string, Counts>> {
  const counts = new Map<string, Counts>();
  for (const id of jobIds) counts.set(id, { pending: 0, valid: 0, invalid: 0, failed: 0, cancelled: 0 });
  if (jobIds.length === 0) return counts;
  const rows = await db
    .selectFrom("bulk_job_codes")
    .select((eb) => ["job_id", "status", eb.fn.countAll().as("n")])
    .where("job_id", "in", jobIds)
    .groupBy(["job_id", "status"])
    .execute();
  for (const row of rows) {
    const entry = counts.get(row.job_id);
    if (entry && row.status in entry) entry[row.status as keyof Counts] = Number(row.n);
  }
  return counts;
}

/** Checks in this job that went to the upstream and finished, for the rate behind the estimate. */
async function upstreamChecked(db: Db, jobId: string): Promise<number> {
  const row = await db
    .selectFrom("bulk_job_codes")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("job_id", "=", jobId)
    .where("refused", "=", 0)
    .where("status", "in", ["valid", "invalid", "failed"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function summaryOf(job: BulkJobRow, counts: Counts, etaSeconds: number | null): BulkJobSummary {
  return {
    id: job.id,
    status: job.status as BulkJobSummary["status"],
    total: job.total,
    done: counts.valid + counts.invalid + counts.failed,
    valid: counts.valid,
    invalid: counts.invalid,
    failed: counts.failed,
    cancelled: counts.cancelled,
    duplicates: job.duplicates,
    created_by: { id: job.user_id, email: job.user_email },
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    expires_at: job.expires_at,
    waiting_until: job.status === "waiting" ? job.waiting_until : null,
    eta_seconds: etaSeconds,
  };
}

/**
 * Time left: the pending codes at the pace this job has kept since it started (so it includes waits the
 * upstream imposed), plus what is left of a current wait. Null until one code has been checked.
 */
async function estimate(db: Db, job: BulkJobRow, counts: Counts, now: number): Promise<number | null> {
  if (!ACTIVE_STATUSES.includes(job.status as (typeof ACTIVE_STATUSES)[number])) return null;
  if (counts.pending === 0) return 0;
  const checked = job.started_at ? await upstreamChecked(db, job.id) : 0;
  if (!job.started_at || checked === 0) return null;
  const perCode = (now - Date.parse(job.started_at)) / checked;
  const waitLeft = job.status === "waiting" && job.waiting_until ? Math.max(0, Date.parse(job.waiting_until) - now) : 0;
  return Math.round((perCode * counts.pending + waitLeft) / 1000);
}

function resultOf(row: BulkJobCodeRow, hashKey: string): BulkResult {
  return {
    index: row.idx,
    code: openCode(row.code_sealed, hashKey) ?? (row.code_last4 ? `…${row.code_last4}` : "…"),
    occurrences: row.occurrences,
    status: row.status as BulkResult["status"],
    reason: row.reason,
    notes: row.notes ? (JSON.parse(row.notes) as string[]) : [],
    item_id: row.item_id,
    item_name: row.item_name,
    license_type: row.license_type,
    supported_until: row.supported_until,
    checked_at: row.checked_at,
  };
}

/** Who may see a job: its creator, or anyone when `userId` is null (an admin). */
export type JobVisibility = { userId: string | null };

/** A user sees his own jobs; an admin sees everyone's. */
export function jobVisibility(user: Pick<User, "id" | "role">): JobVisibility {
  return { userId: user.role === "admin" ? null : user.id };
}

export async function findBulkJob(
  db: Db,
  hashKey: string,
  id: string,
  { userId }: JobVisibility,
  { now = Date.now() }: { now?: number } = {},
): Promise<BulkJob | null> {
  let query = db.selectFrom("bulk_jobs").selectAll().where("id", "=", id);
  if (userId !== null) query = query.where("user_id", "=", userId);
  const job = await query.executeTakeFirst();
  if (!job) return null;
  const rows = await db.selectFrom("bulk_job_codes").selectAll().where("job_id", "=", id).orderBy("idx", "asc").execute();
  const counts: Counts = { pending: 0, valid: 0, invalid: 0, failed: 0, cancelled: 0 };
  for (const row of rows) if (row.status in counts) counts[row.status as keyof Counts] += 1;
  return { ...summaryOf(job, counts, await estimate(db, job, counts, now)), results: rows.map((row) => resultOf(row, hashKey)) };
}

/** A job's counts and state without its results (what a create or a cancel answers): no code is read or opened. */
export async function findBulkJobSummary(
  db: Db,
  id: string,
  { userId }: JobVisibility,
  { now = Date.now() }: { now?: number } = {},
): Promise<BulkJobSummary | null> {
  let query = db.selectFrom("bulk_jobs").selectAll().where("id", "=", id);
  if (userId !== null) query = query.where("user_id", "=", userId);
  const job = await query.executeTakeFirst();
  if (!job) return null;
  const counts = (await countsOf(db, [id])).get(id)!;
  return summaryOf(job, counts, await estimate(db, job, counts, now));
}

export async function listBulkJobs(db: Db, { userId }: JobVisibility, { now = Date.now() }: { now?: number } = {}): Promise<BulkJobSummary[]> {
  let query = db.selectFrom("bulk_jobs").selectAll().where("expires_at", ">", new Date(now).toISOString());
  if (userId !== null) query = query.where("user_id", "=", userId);
  const jobs = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(200).execute();
  const counts = await countsOf(db, jobs.map((job) => job.id));
  return Promise.all(jobs.map(async (job) => {
    const jobCounts = counts.get(job.id)!;
    return summaryOf(job, jobCounts, await estimate(db, job, jobCounts, now));
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Creating and cancelling

/** Too many jobs started in the last 24 hours: the next one may start at `runAt`. */
export interface JobsPerDayRefusal {
  jobsPerDay: number;
  runAt: Date;
}

export type CreateBulkJobResult =
  | { ok: true; id: string }
  | { ok: false; decision: Extract<AllowanceDecision, { allowed: false }> }
  | { ok: false; tooManyJobs: JobsPerDayRefusal };

/** The user's jobs of the last 24 hours, oldest first: when there are too many, the oldest leaving lets one in. */
async function jobsToday(db: Db, userId: string, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom("bulk_jobs")
    .select("created_at")
    .where("user_id", "=", userId)
    .where("created_at", ">", new Date(now.getTime() - DAY_MS).toISOString())
    .orderBy("created_at", "asc")
    .execute();
  return rows.map((row) => row.created_at);
}

/**
 * Creates a job for `rawCodes` if the user's hourly allowance has room for the codes that need the upstream.
 * The check and the insert share one write transaction (serialised per user), so two batches sent at once
 * cannot both squeeze in.
 */
export async function createBulkJob(
  db: Db,
  hashKey: string,
  { user, rawCodes, limitPerHour, now = new Date() }: { user: BulkUser; rawCodes: readonly string[]; limitPerHour: number; now?: Date },
): Promise<CreateBulkJobResult> {
  const { codes, duplicates } = prepareBatch(rawCodes);
  const needed = codes.length;
  const id = crypto.randomUUID();
  const at = now.toISOString();
  const rows = codes.map((code) => ({
    job_id: id,
    idx: code.idx,
    code_sealed: sealCode(code.code, hashKey),
    code_hash: hashPurchaseCode(code.code, hashKey),
    code_last4: purchaseCodeLast4(code.code),
    occurrences: code.occurrences,
    status: code.refused ? "invalid" : "pending",
    refused: code.refused ? 1 : 0,
    reason: code.reason,
    notes: code.notes.length > 0 ? JSON.stringify(code.notes) : null,
    item_id: null,
    item_name: null,
    license_type: null,
    supported_until: null,
    checked_at: code.refused ? at : null,
  }));
  return writeTransaction(db, async (trx) => {
    // SQLite's write transaction already runs one at a time; on PostgreSQL the rows counted are not locked, so a
    // per-user advisory lock (released at commit) keeps two batches sent at once from both fitting.
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(${`gatehouse bulk allowance ${user.id}`}))`.execute(trx);
    const today = await jobsToday(trx, user.id, now);
    if (today.length >= BULK_MAX_JOBS_PER_DAY) {
      const oldest = today[today.length - BULK_MAX_JOBS_PER_DAY]!;
      return { ok: false, tooManyJobs: { jobsPerDay: BULK_MAX_JOBS_PER_DAY, runAt: new Date(Date.parse(oldest) + DAY_MS) } };
    }
    const decision = allowanceDecision(limitPerHour, await allowanceUse(trx, user.id, now), needed);
    if (!decision.allowed) return { ok: false, decision };
    const allRefused = codes.every((code) => code.refused);
    await trx
      .insertInto("bulk_jobs")
      .values({
        id,
        user_id: user.id,
        user_email: user.email,
        // A batch the normaliser refused whole has nothing to send: it is done at once.
        status: allRefused ? "done" : "queued",
        total: codes.length,
        duplicates,
        created_at: at,
        started_at: allRefused ? at : null,
        finished_at: allRefused ? at : null,
        expires_at: new Date(now.getTime() + BULK_JOB_RETENTION_MS).toISOString(),
        waiting_until: null,
        lease_owner: null,
        lease_until: null,
      })
      .execute();
    // In chunks: SQLite and PostgreSQL cap the parameters of one statement.
    for (let start = 0; start < rows.length; start += 200) {
      await trx.insertInto("bulk_job_codes").values(rows.slice(start, start + 200)).execute();
    }
    return { ok: true, id };
  });
}

/**
 * Cancels a job: the codes not yet checked end as cancelled. A check already in flight still finishes and its
 * result replaces "cancelled" (it happened upstream). A finished job stays as it is. False: no such job.
 */
export async function cancelBulkJob(db: Db, id: string, visibility: JobVisibility, now = new Date()): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    let query = trx.selectFrom("bulk_jobs").select(["id", "status"]).where("id", "=", id);
    if (visibility.userId !== null) query = query.where("user_id", "=", visibility.userId);
    const job = await query.executeTakeFirst();
    if (!job) return false;
    if (!ACTIVE_STATUSES.includes(job.status as (typeof ACTIVE_STATUSES)[number])) return true;
    const at = now.toISOString();
    await trx
      .updateTable("bulk_jobs")
      .set({ status: "cancelled", finished_at: at, waiting_until: null, lease_owner: null, lease_until: null })
      .where("id", "=", id)
      .execute();
    await trx
      .updateTable("bulk_job_codes")
      .set({ status: "cancelled", reason: "Not checked: the job was cancelled.", checked_at: at })
      .where("job_id", "=", id)
      .where("status", "=", "pending")
      .execute();
    return true;
  });
}

/** Deletes jobs (and their codes) past their 7 days. Returns how many. */
export async function purgeExpiredBulkJobs(db: Db, now = new Date()): Promise<number> {
  const expired = await db.selectFrom("bulk_jobs").select("id").where("expires_at", "<=", now.toISOString()).execute();
  if (expired.length === 0) return 0;
  const ids = expired.map((row) => row.id);
  await db.deleteFrom("bulk_job_codes").where("job_id", "in", ids).execute();
  await db.deleteFrom("bulk_jobs").where("id", "in", ids).execute();
  return ids.length;
}

// ---------------------------------------------------------------------------------------------------------
// What the runner needs

export interface ClaimedJob {
  id: string;
  user: BulkUser;
}

/**
 * Takes the oldest active job that no live process holds: its lease is free, expired, or already ours (a
 * restart of this process). The lease must be renewed (renewLeases) or another process may take the job over.
 */
export async function claimBulkJob(db: Db, owner: string, leaseMs: number, now = new Date(), skip: readonly string[] = []): Promise<ClaimedJob | null> {
  const at = now.toISOString();
  let query = db
    .selectFrom("bulk_jobs")
    .select(["id", "user_id", "user_email"])
    .where("status", "in", [...ACTIVE_STATUSES])
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at), eb("lease_owner", "=", owner)]));
  if (skip.length > 0) query = query.where("id", "not in", [...skip]);
  const candidates = await query.orderBy("created_at", "asc").limit(5).execute();
  for (const candidate of candidates) {
    const result = await db
      .updateTable("bulk_jobs")
      .set((eb) => ({
        lease_owner: owner,
        lease_until: new Date(now.getTime() + leaseMs).toISOString(),
        status: eb.case().when("status", "=", "queued").then("running").else(eb.ref("status")).end(),
        started_at: eb.fn.coalesce("started_at", eb.val(at)),
      }))
      .where("id", "=", candidate.id)
      .where("status", "in", [...ACTIVE_STATUSES])
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at), eb("lease_owner", "=", owner)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return { id: candidate.id, user: { id: candidate.user_id, email: candidate.user_email } };
  }
  return null;
}

export async function pendingCodes(db: Db, jobId: string): Promise<Array<{ idx: number; sealed: string; attempts: number }>> {
  const rows = await db
    .selectFrom("bulk_job_codes")
    .select(["idx", "code_sealed", "attempts"])
    .where("job_id", "=", jobId)
    .where("status", "=", "pending")
    .orderBy("idx", "asc")
    .execute();
  return rows.map((row) => ({ idx: row.idx, sealed: row.code_sealed, attempts: row.attempts }));
}

/** Whether the job is still one to work on (not cancelled, not deleted, and the lease still ours). */
export async function jobStillOurs(db: Db, jobId: string, owner: string): Promise<boolean> {
  const job = await db.selectFrom("bulk_jobs").select(["status", "lease_owner"]).where("id", "=", jobId).executeTakeFirst();
  return !!job && job.lease_owner === owner && ACTIVE_STATUSES.includes(job.status as (typeof ACTIVE_STATUSES)[number]);
}

export type CodeOutcome =
  | { status: "valid"; purchase: Purchase }
  | { status: "invalid"; reason: string }
  | { status: "failed"; reason: string };

/**
 * Stores one code's result. Only a pending code changes — or one a cancel marked while its check was in flight —
 * so a result is written once and `done` never goes back.
 */
export async function recordBulkResult(db: Db, jobId: string, idx: number, outcome: CodeOutcome, now = new Date()): Promise<boolean> {
  const purchase = outcome.status === "valid" ? outcome.purchase : null;
  const result = await db
    .updateTable("bulk_job_codes")
    .set((eb) => ({
      status: outcome.status,
      reason: outcome.status === "valid" ? null : redactSecrets(outcome.reason),
      item_id: purchase?.item.id ?? null,
      item_name: purchase?.item.name ?? null,
      license_type: purchase?.license_type ?? null,
      supported_until: purchase?.supported_until ?? null,
      checked_at: now.toISOString(),
      attempts: eb("attempts", "+", 1),
    }))
    .where("job_id", "=", jobId)
    .where("idx", "=", idx)
    .where("status", "in", ["pending", "cancelled"])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Counts a try that will be repeated (a rate limit, a transient failure), so a restart knows how many were spent. */
export async function countAttempt(db: Db, jobId: string, idx: number): Promise<void> {
  await db
    .updateTable("bulk_job_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("job_id", "=", jobId)
    .where("idx", "=", idx)
    .execute();
}

export async function renewLeases(db: Db, owner: string, jobIds: readonly string[], leaseMs: number, now = new Date()): Promise<void> {
  if (jobIds.length === 0) return;
  await db
    .updateTable("bulk_jobs")
    .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where("id", "in", [...jobIds])
    .where("lease_owner", "=", owner)
    .execute();
}

/** Marks jobs as waiting for the upstream until `until`, or running again (null). */
export async function setWaiting(db: Db, owner: string, jobIds: readonly string[], until: Date | null): Promise<void> {
  if (jobIds.length === 0) return;
  await db
    .updateTable("bulk_jobs")
    .set({ status: until ? "waiting" : "running", waiting_until: until ? until.toISOString() : null })
    .where("id", "in", [...jobIds])
    .where("lease_owner", "=", owner)
    .where("status", "in", ["running", "waiting"])
    .execute();
}

/** Ends a job whose codes all have a result. */
export async function finishJob(db: Db, jobId: string, owner: string, now = new Date()): Promise<void> {
  await db
    .updateTable("bulk_jobs")
    .set({ status: "done", finished_at: now.toISOString(), waiting_until: null, lease_owner: null, lease_until: null })
    .where("id", "=", jobId)
    .where("lease_owner", "=", owner)
    .where("status", "in", [...ACTIVE_STATUSES])
    .execute();
}

/** Lets go of every job this process holds (shutdown), so that the next process resumes them at once. */
export async function releaseLeases(db: Db, owner: string): Promise<void> {
  await db.updateTable("bulk_jobs").set({ lease_owner: null, lease_until: null }).where("lease_owner", "=", owner).execute();
}

// ---------------------------------------------------------------------------------------------------------
// A job's results as CSV

const RESULT_COLUMNS = [
  "position",
  "code",
  "occurrences",
  "status",
  "reason",
  "item_id",
  "item_name",
  "license_type",
  "supported_until",
  "checked_at",
  "notes",
] as const;

/** The job's results in batch order; `position` counts from 1, as a person reads the batch. */
export function bulkResultsCsv(job: BulkJob): string {
  let text = CSV_BOM + csvLine(RESULT_COLUMNS);
  for (const result of job.results) {
    text += csvLine([
      result.index + 1,
      result.code,
      result.occurrences,
      result.status,
      result.reason,
      result.item_id,
      result.item_name,
      result.license_type,
      result.supported_until,
      result.checked_at,
      result.notes.join(" "),
    ]);
  }
  return text;
}
