// Purchase-code checks: one code, bulk jobs of up to 500, and the history of every check. A code never leaves
// in an audit row or an event: the wrapper keeps its keyed hash and last 4 characters.
import { dataEnvelope, EmptyQuerySchema, pageEnvelope } from "@/lib/contract/common";
import {
  BulkCreateBodySchema,
  BulkJobCsvParamsSchema,
  BulkJobIdParamsSchema,
  BulkJobSchema,
  BulkJobSummarySchema,
  BulkRecheckSchema,
  BulkResultsPageSchema,
  BulkExportQuerySchema,
  BulkResultsQuerySchema,
  PURCHASE_HISTORY_PAGING,
  PurchaseCheckSchema,
  PurchaseHistoryEntrySchema,
  PurchaseHistoryExportQuerySchema,
  PurchaseHistoryQuerySchema,
  PurchaseHistorySearchBodySchema,
  PurchaseValidateBodySchema,
} from "@/lib/contract/purchases";

import { field, text } from "./targets";
import type { OperationSpec } from "./types";

export const purchaseOperations = {
  validatePurchase: {
    id: "validatePurchase",
    method: "POST",
    path: "/api/purchases/validate",
    summary:
      "Check a purchase code; a code that is not valid is a normal answer (valid: false), not an error. A code valid before and refused now is revoked (lifecycle.revoked, with what was bought then); while the item service is down, a code checked before gets its last verdict (stale: true), and one never checked the failure. A code with look-alike or control characters is refused (400) with the reason in fields.purchase_code. A code one slip from a purchase code's shape (a letter O for 0, spaces for hyphens) gets the slip and the corrected code in `suggestion` (of the refusal, or of a not-valid answer). Every check is kept in the history",
    tag: "Purchases",
    permission: "purchases:validate",
    area: "items",
    query: EmptyQuerySchema,
    body: PurchaseValidateBodySchema,
    success: {
      status: 200,
      description:
        "Whether the code is valid, with the purchase when it is, the code as checked, and what the history knew of it",
      schema: dataEnvelope(PurchaseCheckSchema),
    },
    errors: ["rate_limited"],
    rateLimit: "purchase",
    audit: {
      action: "purchase.validate",
      outcome: ({ data }, error) =>
        error === "forbidden" || error === "rate_limited"
          ? "denied"
          : error !== null
            ? "failed"
            : field(data, "valid") === true
              ? "valid"
              : "invalid",
      target: ({ data, body }) => {
        const checked = field(data, "checked_code");
        const code = typeof checked === "string" ? checked : body.purchase_code;
        return typeof code === "string" ? { type: "purchase_code", code } : null;
      },
      detail: ({ data }): Record<string, boolean> => {
        const valid = field(data, "valid");
        const stale = field(data, "stale") === true;
        const revoked = field(field(data, "lifecycle"), "revoked") === true;
        return typeof valid === "boolean"
          ? { valid, ...(stale ? { stale } : {}), ...(revoked ? { revoked } : {}) }
          : {};
      },
    },
    event: {
      emits: ["purchase.checked"],
      describe: ({ data }, code) => {
        const checked = field(data, "checked_code");
        // A stale answer is the last verdict, given while the item service was down: nothing was checked.
        if (typeof checked !== "string" || field(data, "stale") === true) return null;
        const purchase = field(data, "purchase");
        const item = field(purchase, "item");
        const supportedUntil = field(purchase, "supported_until");
        const { hash, last4 } = code(checked);
        return {
          type: "purchase.checked",
          data: {
            outcome:
              field(data, "valid") === true
                ? "valid"
                : field(field(data, "lifecycle"), "revoked") === true
                  ? "revoked"
                  : "invalid",
            code_hash: hash,
            code_last4: last4,
            item: item === undefined ? null : { id: field(item, "id") ?? null, name: field(item, "name") ?? null },
            license_type: field(purchase, "license_type") ?? null,
            support:
              purchase === undefined
                ? null
                : typeof supportedUntil !== "string"
                  ? "none"
                  : Date.parse(supportedUntil) > Date.now()
                    ? "active"
                    : "expired",
            supported_until: typeof supportedUntil === "string" ? supportedUntil : null,
          },
        };
      },
    },
  },
  listPurchaseHistory: {
    id: "listPurchaseHistory",
    method: "GET",
    path: "/api/purchases/history",
    summary:
      "Every purchase check (single and bulk), newest first, filtered and paginated. A full code is never accepted in the URL: search it with POST /api/purchases/history/search",
    tag: "Purchases",
    permission: "purchases:validate",
    query: PurchaseHistoryQuerySchema,
    success: { status: 200, description: "One page of checks", schema: pageEnvelope(PurchaseHistoryEntrySchema) },
  },
  exportPurchaseHistory: {
    id: "exportPurchaseHistory",
    method: "GET",
    path: "/api/purchases/history.csv",
    summary:
      "The checks the same filters select, as CSV, newest first: every page (the list's page and per_page may be sent and are ignored)",
    tag: "Purchases",
    permission: "purchases:validate",
    query: PurchaseHistoryExportQuerySchema,
    ignoredQuery: PURCHASE_HISTORY_PAGING,
    success: { status: 200, description: "CSV with a header row", contentType: "text/csv" },
  },
  searchPurchaseHistory: {
    id: "searchPurchaseHistory",
    method: "POST",
    path: "/api/purchases/history/search",
    summary:
      "The checks of one full purchase code (found through its keyed hash), with the same filters and pages as the list. The code travels in the body, never in a URL that proxies and browsers keep",
    tag: "Purchases",
    permission: "purchases:validate",
    query: EmptyQuerySchema,
    body: PurchaseHistorySearchBodySchema,
    success: { status: 200, description: "One page of checks", schema: pageEnvelope(PurchaseHistoryEntrySchema) },
  },
  exportPurchaseHistorySearch: {
    id: "exportPurchaseHistorySearch",
    method: "POST",
    path: "/api/purchases/history/search.csv",
    summary:
      "The checks of one full purchase code as CSV, with the same filters (page and per_page ignored), newest first",
    tag: "Purchases",
    permission: "purchases:validate",
    query: EmptyQuerySchema,
    body: PurchaseHistorySearchBodySchema,
    success: { status: 200, description: "CSV with a header row", contentType: "text/csv" },
  },
  createBulkJob: {
    id: "createBulkJob",
    method: "POST",
    path: "/api/purchases/bulk",
    summary:
      "Start checking up to 500 codes on the server (at most 3 upstream calls at once; the item service's 429s are waited out). Every distinct code, refused ones too, counts against the hourly bulk allowance (PURCHASE_BULK_LIMIT_PER_HOUR), and a user may start at most 200 jobs in 24 hours; a batch over either is refused (429) with the time it could run",
    tag: "Purchases",
    permission: "purchases:validate",
    area: "items",
    query: EmptyQuerySchema,
    body: BulkCreateBodySchema,
    maxBodyBytes: 1024 * 1024,
    success: {
      status: 202,
      description: "The job, accepted; follow it with GET /api/purchases/bulk/{id}",
      schema: dataEnvelope(BulkJobSummarySchema),
    },
    errors: ["rate_limited"],
    audit: {
      action: "purchase.bulk_create",
      detail: ({ data }) => ({ job_id: text(field(data, "id")), total: Number(field(data, "total") ?? 0) }),
    },
  },
  listBulkJobs: {
    id: "listBulkJobs",
    method: "GET",
    path: "/api/purchases/bulk",
    summary: "Bulk jobs of the last 7 days, newest first: your own, or everyone's for an admin",
    tag: "Purchases",
    permission: "purchases:validate",
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "The jobs, without their results",
      schema: dataEnvelope(BulkJobSummarySchema.array()),
    },
  },
  getBulkJob: {
    id: "getBulkJob",
    method: "GET",
    path: "/api/purchases/bulk/{id}",
    summary: "A bulk job's progress and results. Your own jobs, or any for an admin",
    tag: "Purchases",
    permission: "purchases:validate",
    params: BulkJobIdParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "The job with every code's result so far",
      schema: dataEnvelope(BulkJobSchema),
    },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
  },
  listBulkJobResults: {
    id: "listBulkJobResults",
    method: "GET",
    path: "/api/purchases/bulk/{id}/results",
    summary:
      "One page of a bulk job's results (50 by default), filtered by status (or support_expired, retryable) and searched (q: part of a code in any case, an item, a licence or a reason) on the server, with the job's summary and how many rows each filter holds",
    tag: "Purchases",
    permission: "purchases:validate",
    params: BulkJobIdParamsSchema,
    query: BulkResultsQuerySchema,
    success: {
      status: 200,
      description: "One page of results, the job, and the count under each filter",
      schema: BulkResultsPageSchema,
    },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
  },
  recheckBulkJob: {
    id: "recheckBulkJob",
    method: "POST",
    path: "/api/purchases/bulk/{id}/recheck",
    summary:
      "Check a finished job's failed rows again — only those that failed for a reason that can pass on a retry (network, timeout, 429, 5xx), never invalid ones. They count against the hourly bulk allowance; the job runs again and its counts follow. 409 while the job runs or when no row can be re-checked",
    tag: "Purchases",
    permission: "purchases:validate",
    area: "items",
    params: BulkJobIdParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 202,
      description: "The job, queued again, with how many rows were sent back",
      schema: dataEnvelope(BulkRecheckSchema),
    },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
    errors: ["conflict", "rate_limited"],
    audit: {
      action: "purchase.bulk_recheck",
      detail: ({ params, data }) => ({ job_id: text(params.id), rechecked: Number(field(data, "rechecked") ?? 0) }),
    },
  },
  exportBulkJob: {
    id: "exportBulkJob",
    method: "GET",
    path: "/api/purchases/bulk/{id}.csv",
    summary: "A bulk job's results as CSV, in batch order (also while it runs: pending codes say so)",
    tag: "Purchases",
    permission: "purchases:validate",
    params: BulkJobCsvParamsSchema,
    query: BulkExportQuerySchema,
    success: { status: 200, description: "CSV with a header row", contentType: "text/csv" },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
  },
  cancelBulkJob: {
    id: "cancelBulkJob",
    method: "DELETE",
    path: "/api/purchases/bulk/{id}",
    summary:
      "Cancel a bulk job: checks in flight finish, the codes not yet checked end as cancelled. A finished job is answered as it is",
    tag: "Purchases",
    permission: "purchases:validate",
    params: BulkJobIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The job after the cancel", schema: dataEnvelope(BulkJobSummarySchema) },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
    audit: {
      action: "purchase.bulk_cancel",
      detail: ({ params }) => ({ job_id: text(params.id) }),
    },
  },
} as const satisfies Record<string, OperationSpec>;
