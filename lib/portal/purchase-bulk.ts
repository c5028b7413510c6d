// The bulk check pages' words and sums, pure so they are tested without a browser: what a pasted list holds
// (codes, duplicates, codes the normaliser refuses) before it is sent, and how a running job is described. The
// limits and statuses are the contract's own (lib/contract/values.ts).
import {
  BULK_MAX_CODES,
  BULK_RESULT_FILTERS,
  BULK_RESULT_SEARCH_MAX_LENGTH,
  isOneOf,
  RAW_PURCHASE_CODE_MAX_LENGTH,
  type BulkResultFilter,
  type BulkCodeStatus,
  type BulkJobStatus,
  type PurchaseCodeFormat,
} from "@/lib/contract/values";
import { normalisePurchaseCode } from "@/lib/purchases/normalise";

import { readParam, type SearchParamsInput } from "./list-params";

/** A file bigger than this is not a list of 500 codes, even with other columns. */
export const BULK_FILE_MAX_BYTES = 2 * 1024 * 1024;

export const JOB_STATUS_LABELS: Record<BulkJobStatus, string> = {
  queued: "Queued",
  running: "Checking",
  waiting: "Waiting",
  done: "Done",
  cancelled: "Cancelled",
};

export const CODE_STATUS_LABELS: Record<BulkCodeStatus, string> = {
  pending: "Not checked yet",
  valid: "Valid",
  invalid: "Invalid",
  revoked: "Revoked",
  failed: "Failed",
  cancelled: "Cancelled",
};

export function isFinished(status: BulkJobStatus): boolean {
  return status === "done" || status === "cancelled";
}

/** Finished, and no check under way at a cancel is still to write its result: the counts will not change. */
export function isSettled(job: Pick<JobCounts, "status" | "settling">): boolean {
  return isFinished(job.status) && !job.settling;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface RefusedCode {
  /** 1-based place in the list as pasted. */
  position: number;
  code: string;
  reason: string;
}

export interface BatchSummary {
  /** Codes in the list, duplicates included (what the limit counts). */
  entered: number;
  duplicates: number;
  /** Distinct codes: what the job will hold. */
  distinct: number;
  /** Codes the normaliser refuses: they end as invalid with the reason, without asking the item service. */
  refused: RefusedCode[];
  /** Why the list cannot be sent as it is, for the field's error; null when it can. */
  problem: string | null;
}

/**
 * What a list holds, counted as the gateway will count it: two codes are the same when they clean to the
 * same code (a code the normaliser refuses is compared trimmed), as lib/purchases/bulk/batch.ts's prepareBatch.
 */
export function summariseBatch(codes: readonly string[], format: PurchaseCodeFormat = "auto"): BatchSummary {
  const seen = new Set<string>();
  const refused: RefusedCode[] = [];
  let tooLong = 0;
  codes.forEach((raw, index) => {
    if (raw.length > RAW_PURCHASE_CODE_MAX_LENGTH) tooLong = tooLong || index + 1;
    const result = normalisePurchaseCode(raw, format);
    const key = result.ok ? result.code : raw.trim();
    if (seen.has(key)) return;
    seen.add(key);
    if (!result.ok) refused.push({ position: index + 1, code: raw.trim(), reason: result.reason });
  });
  const summary = { entered: codes.length, duplicates: codes.length - seen.size, distinct: seen.size, refused };
  let problem: string | null = null;
  if (codes.length === 0) problem = "Paste at least one purchase code, or choose a file.";
  else if (codes.length > BULK_MAX_CODES)
    problem = `That is ${codes.length} codes; one check takes at most ${BULK_MAX_CODES}. Split the list and check the rest afterwards.`;
  else if (tooLong)
    problem = `Code ${tooLong} is longer than ${RAW_PURCHASE_CODE_MAX_LENGTH} characters, so it cannot be a purchase code. Check what was pasted.`;
  return { ...summary, problem };
}

/** "12 codes, 2 duplicates — 10 will be checked". */
export function describeBatch(summary: Pick<BatchSummary, "entered" | "duplicates" | "distinct">): string {
  if (summary.entered === 0) return "No codes yet.";
  const duplicates = summary.duplicates > 0 ? `, ${plural(summary.duplicates, "duplicate")}` : "";
  return `${plural(summary.entered, "code")}${duplicates} — ${summary.distinct} will be checked`;
}

/** "about 3 min left", "less than a minute left"; null when there is nothing to estimate. */
export function timeLeftText(etaSeconds: number | null, status: BulkJobStatus): string | null {
  if (isFinished(status)) return null;
  if (etaSeconds === null) return "Estimating the time left";
  if (etaSeconds < 60) return "Less than a minute left";
  const minutes = Math.round(etaSeconds / 60);
  if (minutes < 60) return `About ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `About ${hours} h${rest ? ` ${rest} min` : ""} left`;
}

export interface JobCounts {
  status: BulkJobStatus;
  total: number;
  done: number;
  valid: number;
  invalid: number;
  /** Seen valid before, refused now (probably refunded or reversed sales); said only when there are some. */
  revoked?: number;
  failed: number;
  /** Codes that cannot be purchase codes, refused before any call: apart from `invalid`. */
  refused?: number;
  cancelled: number;
  /** Cancelled, with checks under way at the cancel still to write their results. */
  settling?: boolean;
}

/** Codes neither checked nor cancelled yet. */
export function codesLeft(job: JobCounts): number {
  return Math.max(0, job.total - job.done - job.cancelled);
}

/** Whole percent checked, never 100 before every code is done. */
export function percentDone(job: Pick<JobCounts, "total" | "done">): number {
  if (job.total === 0) return 100;
  const percent = Math.floor((job.done / job.total) * 100);
  return job.done >= job.total ? 100 : Math.min(percent, 99);
}

/** What a screen reader hears when the job's status changes (not on every count, which would never stop). */
export function statusAnnouncement(job: JobCounts): string {
  switch (job.status) {
    case "queued":
      return `Queued: ${plural(job.total, "code")} will be checked shortly.`;
    case "running":
      return `Checking ${plural(job.total, "code")}.`;
    case "waiting":
      return "Paused: the item service asked Gatehouse to slow down. Checking resumes by itself.";
    case "done":
      return `Finished: ${job.valid} valid, ${revokedText(job)}${job.invalid} invalid, ${job.failed} failed${notCodes(job)}.`;
    case "cancelled":
      if (job.settling) return `Cancelling: ${plural(codesLeft(job), "check")} under way will finish first.`;
      return `Cancelled: ${job.done} checked (${job.valid} valid, ${revokedText(job)}${job.invalid} invalid, ${job.failed} failed${notCodes(job)}), ${plural(job.cancelled, "code")} not checked.`;
  }
}

/** "1 revoked, " when the job has codes seen valid before and refused now. */
function revokedText(job: JobCounts): string {
  const revoked = job.revoked ?? 0;
  return revoked === 0 ? "" : `${revoked} revoked, `;
}

/** ", 2 not purchase codes" when the job has codes refused before any call. */
function notCodes(job: JobCounts): string {
  const refused = job.refused ?? 0;
  return refused === 0 ? "" : `, ${refused} not ${refused === 1 ? "a purchase code" : "purchase codes"}`;
}

// ---------------------------------------------------------------------------------------------------------
// A job's results as a view: page, filter and search live in the page's URL (reload and a shared link show the
// same rows) and are sent as they are to GET /api/purchases/bulk/{id}/results, which pages on the server.

export interface JobResultsQuery {
  page?: number;
  status?: BulkResultFilter;
  q?: string;
}

export const RESULT_FILTER_LABELS: Record<BulkResultFilter, string> = {
  valid: "Valid",
  support_expired: "Valid, support expired",
  invalid: "Invalid",
  revoked: "Revoked (valid before)",
  refused: "Not purchase codes",
  failed: "Failed",
  retryable: "Failed, can be re-checked",
  pending: "Not checked yet",
  cancelled: "Cancelled",
};

export function parseJobResultsParams(params: SearchParamsInput): JobResultsQuery {
  const query: JobResultsQuery = {};
  const page = readParam(params, "page");
  if (page && /^[1-9]\d{0,5}$/.test(page)) query.page = Number(page);
  const status = readParam(params, "status");
  if (isOneOf(BULK_RESULT_FILTERS, status)) query.status = status;
  const q = readParam(params, "q")?.trim();
  if (q) query.q = q.slice(0, BULK_RESULT_SEARCH_MAX_LENGTH);
  return query;
}

/** The page's query string: status, q, then page (page 1 is left out). */
export function jobResultsQueryString(query: JobResultsQuery): string {
  const params = new URLSearchParams();
  if (query.status) params.set("status", query.status);
  if (query.q) params.set("q", query.q);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function jobResultsApiPath(id: string, query: JobResultsQuery): string {
  return `/api/purchases/bulk/${id}/results${jobResultsQueryString(query)}`;
}

/**
 * The valid or the invalid codes of a job, one a line, for the clipboard. Valid: support expired included (those
 * purchases are real). Invalid: the codes to follow up with the buyer — answered not valid, revoked (valid before,
 * refused now), or not a purchase code.
 */
export function codesText(
  results: ReadonlyArray<{ code: string; status: BulkCodeStatus }>,
  kind: "valid" | "invalid",
): string {
  return results
    .filter((result) => result.status === kind || (kind === "invalid" && result.status === "revoked"))
    .map((result) => result.code)
    .join("\n");
}
