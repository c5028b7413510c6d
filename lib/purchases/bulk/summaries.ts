// Jobs as the API shows them: their counts, state and time left (without reading a code, for lists, creates and
// cancels), or with every code's result (codes opened from their seals), and the results as CSV.
import "server-only";

import type { z } from "zod";

import { supportOf } from "@/lib/contract/purchase-code";
import { LastVerdictSchema, PreviousPurchaseSchema } from "@/lib/contract/purchase-lifecycle";
import type { BulkJob, BulkJobSummary, BulkResult, BulkResultsPage, BulkResultsQuery } from "@/lib/contract/purchases";
import { pageMeta } from "@/lib/contract/common";
import { isoInZone } from "@/lib/contract/time-zone";
import {
  BULK_RESULT_FILTERS,
  DEFAULT_PER_PAGE,
  type BulkResultFilter,
  type PurchaseCodeFormat,
} from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { BulkJobCodeRow, BulkJobRow } from "@/lib/db/schema";

import { csvLine, CSV_BOM } from "@/lib/csv";
import { PURCHASED_ITEM_COLUMNS } from "../csv";
import { slipFor } from "../slips";
import { codeSealer } from "./code-seal";
import { isActive, type JobVisibility } from "./jobs";

interface Counts {
  pending: number;
  valid: number;
  invalid: number;
  /** Seen valid before, refused now. */
  revoked: number;
  /** Invalid at once: the normaliser refused the code, which was never sent. */
  refused: number;
  failed: number;
  cancelled: number;
}

const noCounts = (): Counts => ({ pending: 0, valid: 0, invalid: 0, revoked: 0, refused: 0, failed: 0, cancelled: 0 });

/** The count a code row adds to: a refused code is no invalid purchase. */
function countKey(status: string, refused: number): keyof Counts | null {
  if (status === "invalid" && refused === 1) return "refused";
  return status in noCounts() ? (status as keyof Counts) : null;
}

async function countsOf(db: Db, jobIds: string[]): Promise<Map<string, Counts>> {
  const counts = new Map<string, Counts>();
  for (const id of jobIds) counts.set(id, noCounts());
  if (jobIds.length === 0) return counts;
  const rows = await db
    .selectFrom("bulk_job_codes")
    .select((eb) => ["job_id", "status", "refused", eb.fn.countAll().as("n")])
    .where("job_id", "in", jobIds)
    .groupBy(["job_id", "status", "refused"])
    .execute();
  for (const row of rows) {
    const entry = counts.get(row.job_id);
    const key = countKey(row.status, Number(row.refused));
    if (entry && key) entry[key] += Number(row.n);
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
    .where("status", "in", ["valid", "invalid", "revoked", "failed"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function summaryOf(job: BulkJobRow, counts: Counts, etaSeconds: number | null): BulkJobSummary {
  return {
    id: job.id,
    status: job.status as BulkJobSummary["status"],
    total: job.total,
    done: counts.valid + counts.invalid + counts.revoked + counts.refused + counts.failed,
    valid: counts.valid,
    invalid: counts.invalid,
    revoked: counts.revoked,
    refused: counts.refused,
    failed: counts.failed,
    cancelled: counts.cancelled,
    settling: job.status === "cancelled" && counts.pending > 0,
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
  if (!isActive(job.status)) return null;
  if (counts.pending === 0) return 0;
  const checked = job.started_at ? await upstreamChecked(db, job.id) : 0;
  if (!job.started_at || checked === 0) return null;
  const perCode = (now - Date.parse(job.started_at)) / checked;
  const waitLeft = job.status === "waiting" && job.waiting_until ? Math.max(0, Date.parse(job.waiting_until) - now) : 0;
  return Math.round((perCode * counts.pending + waitLeft) / 1000);
}

/** A JSON column read through its schema; null when empty or no longer readable (the rest of the row stands). */
function jsonColumn<T>(text: string | null, schema: z.ZodType<T>): T | null {
  if (text === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function resultOf(row: BulkJobCodeRow, hashKey: string, format: PurchaseCodeFormat): BulkResult {
  const code = codeSealer.open(row.code_sealed, hashKey) ?? (row.code_last4 ? `…${row.code_last4}` : "…");
  return {
    index: row.idx,
    code,
    occurrences: row.occurrences,
    status: row.status as BulkResult["status"],
    reason: row.reason,
    notes: row.notes ? (JSON.parse(row.notes) as string[]) : [],
    item_id: row.item_id,
    item_name: row.item_name,
    license_type: row.license_type,
    supported_until: row.supported_until,
    previously_valid: row.status === "revoked" ? jsonColumn(row.previously_valid, PreviousPurchaseSchema) : null,
    last_verdict: row.status === "failed" ? jsonColumn(row.last_verdict, LastVerdictSchema) : null,
    support: supportOf(
      row.status === "valid",
      row.supported_until,
      row.checked_at ? Date.parse(row.checked_at) : Date.now(),
    ),
    retryable: row.status === "failed" && row.retryable === 1,
    refused: row.status === "invalid" && row.refused === 1,
    // A code answered invalid (or refused) one slip from a purchase code's shape: named, with the mend.
    suggestion: row.status === "invalid" ? slipFor(code, format) : null,
    checked_at: row.checked_at,
  };
}

export async function findBulkJob(
  db: Db,
  hashKey: string,
  id: string,
  { userId }: JobVisibility,
  { now = Date.now(), format = "auto" }: { now?: number; format?: PurchaseCodeFormat } = {},
): Promise<BulkJob | null> {
  let query = db.selectFrom("bulk_jobs").selectAll().where("id", "=", id);
  if (userId !== null) query = query.where("user_id", "=", userId);
  const job = await query.executeTakeFirst();
  if (!job) return null;
  const rows = await db
    .selectFrom("bulk_job_codes")
    .selectAll()
    .where("job_id", "=", id)
    .orderBy("idx", "asc")
    .execute();
  const counts = noCounts();
  for (const row of rows) {
    const key = countKey(row.status, row.refused);
    if (key) counts[key] += 1;
  }
  return {
    ...summaryOf(job, counts, await estimate(db, job, counts, now)),
    results: rows.map((row) => resultOf(row, hashKey, format)),
  };
}

/** Whether a result is one the filter asks for. */
function matchesFilter(result: BulkResult, filter: BulkResultFilter): boolean {
  if (filter === "support_expired") return result.status === "valid" && result.support === "expired";
  if (filter === "retryable") return result.retryable;
  if (filter === "refused") return result.refused;
  if (filter === "invalid") return result.status === "invalid" && !result.refused;
  return result.status === filter;
}

/** Whether a result matches a search: part of its code (any case, hyphens or not), item name, licence or reason. */
function matchesSearch(result: BulkResult, q: string): boolean {
  const needle = q.trim().toLowerCase();
  if (needle === "") return true;
  const bare = needle.replace(/-/g, "");
  const code = result.code.toLowerCase();
  return (
    code.includes(needle) ||
    (bare !== "" && code.replace(/-/g, "").includes(bare)) ||
    [result.item_name, result.license_type, result.reason].some((text) => text?.toLowerCase().includes(needle))
  );
}

/**
 * One page of a job's results, filtered and searched on the server, with the job's summary and how many rows each
 * filter would show (for the filter's labels). A job holds at most 500 codes, sealed at rest: they are opened and
 * matched here, in memory, rather than in SQL, which cannot see them.
 */
export async function findBulkResultsPage(
  db: Db,
  hashKey: string,
  id: string,
  visibility: JobVisibility,
  { page = 1, per_page: perPage = DEFAULT_PER_PAGE.bulkResults, status, q = "" }: BulkResultsQuery,
  options: { now?: number; format?: PurchaseCodeFormat } = {},
): Promise<BulkResultsPage | null> {
  const job = await findBulkJob(db, hashKey, id, visibility, options);
  if (!job) return null;
  const { results, ...summary } = job;
  const searched = results.filter((result) => matchesSearch(result, q));
  const counts = { all: searched.length } as BulkResultsPage["counts"];
  for (const filter of BULK_RESULT_FILTERS)
    counts[filter] = searched.filter((result) => matchesFilter(result, filter)).length;
  const selected = status === undefined ? searched : searched.filter((result) => matchesFilter(result, status));
  const data = selected.slice((page - 1) * perPage, page * perPage);
  return { data, meta: pageMeta(page, perPage, selected.length), job: summary, counts };
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

export async function listBulkJobs(
  db: Db,
  { userId }: JobVisibility,
  { now = Date.now() }: { now?: number } = {},
): Promise<BulkJobSummary[]> {
  let query = db.selectFrom("bulk_jobs").selectAll().where("expires_at", ">", new Date(now).toISOString());
  if (userId !== null) query = query.where("user_id", "=", userId);
  const jobs = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(200).execute();
  const counts = await countsOf(
    db,
    jobs.map((job) => job.id),
  );
  return Promise.all(
    jobs.map(async (job) => {
      const jobCounts = counts.get(job.id)!;
      return summaryOf(job, jobCounts, await estimate(db, job, jobCounts, now));
    }),
  );
}

const RESULT_COLUMNS = [
  "position",
  "code",
  "occurrences",
  "status",
  "reason",
  ...PURCHASED_ITEM_COLUMNS,
  "checked_at",
  "notes",
  "previously_valid_at",
  "last_verdict",
  "last_verdict_at",
] as const;

/**
 * The job's results in batch order; `position` counts from 1, as a person reads the batch. With a `zone`, checked_at,
 * previously_valid_at and last_verdict_at carry its offset ("2026-11-27T17:12:05.000-08:00", the same instant).
 */
export function bulkResultsCsv(job: BulkJob, zone?: string): string {
  const inZone = (iso: string | null) => (zone === undefined || iso === null ? iso : isoInZone(new Date(iso), zone));
  let text = CSV_BOM + csvLine(RESULT_COLUMNS);
  for (const result of job.results) {
    text += csvLine([
      result.index + 1,
      result.code,
      result.occurrences,
      result.refused ? "refused" : result.status,
      result.reason,
      result.item_id,
      result.item_name,
      result.license_type,
      result.supported_until,
      result.support,
      inZone(result.checked_at),
      result.notes.join(" "),
      inZone(result.previously_valid?.last_valid_at ?? null),
      result.last_verdict?.outcome ?? null,
      inZone(result.last_verdict?.checked_at ?? null),
    ]);
  }
  return text;
}
