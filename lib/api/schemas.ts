// The portal API's contract: every input the route handlers accept and every object they return, as zod
// schemas. The same schemas validate requests, type the upstream clients' results and generate
// /api/openapi.json, so the three cannot drift apart.
import { z } from "zod";

import { AUDIT_ACTIONS, AUDIT_OUTCOMES } from "@/lib/contract/values";
import { createUserInput, emailSchema, textError, updateUserInput } from "@/lib/auth/fields";
import { PERMISSIONS, ROLES } from "@/lib/contract/values";

// ---------------------------------------------------------------------------------------------------------
// Values from the upstream document

export const REPORT_RESULTS = ["good", "decent", "bad"] as const;
export const REPORT_PRIVACY = [0, 1, 2] as const; // 0 Public, 1 Private, 2 Password
export const PER_PAGE_VALUES = ["10", "25", "50", "100"] as const;
export const SORT_DIRECTIONS = ["desc", "asc"] as const;
export const REPORT_SORT_FIELDS = ["id", "generated_at", "url", "result"] as const;
export const PROJECT_SORT_FIELDS = ["created_at", "project"] as const;

const isoTimestamp = z.iso.datetime().describe("ISO 8601 timestamp in UTC, e.g. 2025-01-31T12:00:00.000Z");

// ---------------------------------------------------------------------------------------------------------
// Output objects (what Gatehouse answers; normalised from whatever the upstream sent)

export const ReportSchema = z
  .object({
    id: z.number().int().positive(),
    url: z.string(),
    project: z.string().nullable().describe("Project name; null when the report belongs to none"),
    result: z.enum(REPORT_RESULTS),
    generated_at: isoTimestamp.nullable().describe("When the report was generated (ISO 8601 UTC); null if not yet"),
    privacy: z.union([z.literal(0), z.literal(1), z.literal(2)]).describe("0 Public, 1 Private, 2 Password"),
  })
  .describe("A web-page report. Its password is never returned.");
export type Report = z.infer<typeof ReportSchema>;

export const ProjectSchema = z.object({
  project: z.string().describe("The project name (its identifier in /api/projects/{project})"),
  created_at: isoTimestamp.nullable(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const AccountSchema = z.object({
  name: z.object({ firstname: z.string(), lastname: z.string(), full_name: z.string() }),
  username: z.string(),
  email: z.string(),
  balance: z.number(),
  currency: z.string(),
  profile: z.object({
    heading: z.string().nullable(),
    description: z.string().nullable(),
    contact: z.object({ email: z.string().nullable() }),
    social_links: z.record(z.string(), z.string()).describe("Network name → link"),
    media: z.object({ avatar: z.string().nullable(), cover: z.string().nullable() }),
  }),
  registered_at: isoTimestamp,
});
export type Account = z.infer<typeof AccountSchema>;

export const ItemSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  sub_category: z.string().nullable(),
  options: z.array(z.string()),
  version: z.string().describe("The item's own version (x.y.z), unrelated to the API's"),
  demo_link: z.string().nullable(),
  tags: z.array(z.string()),
  media: z.object({
    thumbnail: z.string().nullable(),
    preview_image: z.string().optional().describe("Omitted for audio items"),
    preview_video: z.string().optional().describe("Present only for video items"),
    preview_audio: z.string().optional().describe("Present only for audio items"),
    screenshots: z.array(z.string()),
  }),
  price: z.object({ regular: z.number(), extended: z.number() }),
  currency: z.string(),
  published_at: isoTimestamp,
});
export type Item = z.infer<typeof ItemSchema>;

export const PurchaseSchema = z.object({
  purchase_code: z.string(),
  license_type: z.string(),
  price: z.number(),
  currency: z.string(),
  item: z.object({
    id: z.number().int().positive(),
    name: z.string(),
    url: z.string().nullable(),
    media: z.object({ preview_image: z.string().optional() }),
  }),
  supported_until: isoTimestamp.optional().describe("Omitted when support is disabled or the purchase is not supported"),
  downloaded: z.boolean(),
  date: isoTimestamp,
});
export type Purchase = z.infer<typeof PurchaseSchema>;

export const PageMetaSchema = z.object({
  page: z.number().int().positive(),
  per_page: z.number().int().positive(),
  total: z.number().int().nonnegative(),
  last_page: z.number().int().positive(),
});
export type PageMeta = z.infer<typeof PageMetaSchema>;

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export const PurchaseValidationSchema = z.discriminatedUnion("valid", [
  z.object({ valid: z.literal(true), purchase: PurchaseSchema }),
  z.object({ valid: z.literal(false), message: z.string().describe("Why the code is not valid, e.g. \"Invalid purchase code\"") }),
]);
export type PurchaseValidation = z.infer<typeof PurchaseValidationSchema>;

export const AreaReadinessSchema = z.object({
  configured: z.boolean(),
  reachable: z.boolean().optional().describe("The upstream answered"),
  key_accepted: z.boolean().optional().describe("The upstream accepted Gatehouse's key"),
  duration_ms: z.number().optional(),
  problem: z.string().optional(),
});
export const BreakerSchema = z.object({
  state: z.enum(["closed", "open", "half_open"]).describe("open: calls are answered 503 upstream_unavailable without asking the upstream"),
  retry_in_ms: z.number().describe("Until a trial request may go through; 0 unless open"),
});
export const ReadinessSchema = z.object({
  status: z.enum(["ready", "not_ready"]),
  checked_at: isoTimestamp.describe("When the upstreams were last asked (at most every 5 s, whoever asks)"),
  mode: z.enum(["configured", "demo"]).optional().describe("Detail: for an admin's session or Authorization: Bearer <METRICS_TOKEN>"),
  areas: z.object({ reports: AreaReadinessSchema, items: AreaReadinessSchema }).optional().describe("Detail, as mode"),
  breakers: z
    .object({ reports: BreakerSchema.optional(), items: BreakerSchema.optional() })
    .optional()
    .describe("Detail, as mode: the circuit breaker of each configured area"),
  shutting_down: z.boolean().optional().describe("true after SIGTERM, while requests in flight finish"),
});
export type Readiness = z.infer<typeof ReadinessSchema>;

export const HealthSchema = z.object({ status: z.literal("ok") });

// Response envelopes
export const dataEnvelope = <T extends z.ZodType>(data: T) => z.object({ data });
export const pageEnvelope = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: PageMetaSchema });

export const ErrorEnvelopeSchema = z.object({
  error: z.object({
    code: z.string().describe("Stable machine-readable code, e.g. invalid_input, not_found, upstream_timeout"),
    message: z.string().describe("What went wrong and what to do, for a person"),
    fields: z.record(z.string(), z.string()).optional().describe("invalid_input: one message per bad field"),
    request_id: z.string().describe("Also in the X-Request-Id header and in the server's log line"),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

// ---------------------------------------------------------------------------------------------------------
// Inputs. Query values arrive as strings; an empty value (`?search=`) counts as absent. Unknown fields are
// refused, so a typo (`?perpage=50`) is a 400 rather than silently ignored.

const oneOf = (values: readonly string[]) => `must be one of: ${values.join(", ")}`;

const searchText = z
  .string()
  .max(255, "must be at most 255 characters")
  .regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters");

const perPage = z
  .enum(PER_PAGE_VALUES, { error: oneOf(PER_PAGE_VALUES) })
  .transform(Number)
  .describe("Items per page: 10 (default), 25, 50 or 100");

const page = z
  .string()
  .regex(/^[1-9]\d{0,5}$/, "must be a whole number from 1 to 999999")
  .transform(Number)
  .describe("Page number, from 1");

/** `from` and `to` of a time filter (audit log, purchase history): a date is the whole day (UTC), or a date-time. */
const instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: "must be a date or date-time, such as 2025-03-01 or 2025-03-01T12:00:00Z" })
  .describe("A date (the whole day, UTC) or an ISO 8601 date-time");
const timeRange = {
  from: instant.optional().describe("From this moment (inclusive); a bare date means its first millisecond"),
  to: instant.optional().describe("Up to this moment (inclusive); a bare date means its last millisecond"),
};
const fromNotAfterTo = (q: { from?: string; to?: string }) => !q.from || !q.to || bound(q.from, "start") <= bound(q.to, "end");
const FROM_AFTER_TO = { message: "must not be after to", path: ["from"] };

const sortDirection = z.enum(SORT_DIRECTIONS, { error: oneOf(SORT_DIRECTIONS) }).describe("desc (default) or asc");

export const ReportListQuerySchema = z.strictObject({
  search: searchText.optional().describe("Search text, matched against search_by"),
  search_by: z.enum(["url"], { error: oneOf(["url"]) }).optional().describe("Field to search: url (default)"),
  project: searchText.optional().describe("Only reports of this project"),
  result: z.enum(REPORT_RESULTS, { error: oneOf(REPORT_RESULTS) }).optional().describe("Only reports with this result"),
  sort_by: z.enum(REPORT_SORT_FIELDS, { error: oneOf(REPORT_SORT_FIELDS) }).optional().describe("id (default; date created), generated_at, url, result"),
  sort: sortDirection.optional(),
  per_page: perPage.optional(),
  page: page.optional(),
});
export type ReportListQuery = z.output<typeof ReportListQuerySchema>;

export const ProjectListQuerySchema = z.strictObject({
  search: searchText.optional().describe("Search text, matched against search_by"),
  search_by: z.enum(["project"], { error: oneOf(["project"]) }).optional().describe("Field to search: project (default)"),
  sort_by: z.enum(PROJECT_SORT_FIELDS, { error: oneOf(PROJECT_SORT_FIELDS) }).optional().describe("created_at (default) or project"),
  sort: sortDirection.optional(),
  per_page: perPage.optional(),
  page: page.optional(),
});
export type ProjectListQuery = z.output<typeof ProjectListQuerySchema>;

export const EmptyQuerySchema = z.strictObject({});

/** Path ids: positive integers small enough to be exact in JavaScript. */
const positiveIdParam = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, "must be a positive whole number")
  .transform(Number);

export const ReportIdParamsSchema = z.object({ id: positiveIdParam.describe("Report id") });
export const ItemIdParamsSchema = z.object({ id: positiveIdParam.describe("Item id") });
export const ProjectParamsSchema = z.object({
  project: z
    .string()
    .min(1, "must not be empty")
    .max(255, "must be at most 255 characters")
    .describe("Project name, URL-encoded in the path (spaces and non-ASCII letters are fine)"),
});

const privacy = z
  .union([z.literal(0), z.literal(1), z.literal(2)], { error: "must be 0 (Public), 1 (Private) or 2 (Password)" })
  .describe("0 Public, 1 Private, 2 Password");
const password = z
  .string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters")
  .describe("Password of the report page; only with privacy 2. Never returned.");

const PASSWORD_NEEDS_PRIVACY_2 = "only applies when privacy is 2 (Password); send privacy 2 or leave password out";

export const ReportCreateBodySchema = z
  .strictObject({
    url: z
      .string({ error: (issue) => (issue.input === undefined ? "is required: the web page's URL" : "must be a string") })
      .max(2048, "must be at most 2048 characters")
      .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), "must be an absolute http:// or https:// URL")
      .describe("The web page's URL (http or https)"),
    privacy: privacy.optional(),
    password: password.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.privacy === 2 && body.password === undefined) {
      ctx.addIssue({ code: "custom", path: ["password"], message: "is required when privacy is 2 (Password)" });
    }
    if (body.password !== undefined && body.privacy !== 2) {
      ctx.addIssue({ code: "custom", path: ["password"], message: PASSWORD_NEEDS_PRIVACY_2 });
    }
  });
export type ReportCreateInput = z.output<typeof ReportCreateBodySchema>;

export const ReportUpdateBodySchema = z
  .strictObject({
    privacy: privacy.optional(),
    password: password.optional(),
    results: z.literal(true, { error: "can only be true (regenerate the report's results); leave it out otherwise" }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.privacy === undefined && body.password === undefined && body.results === undefined) {
      ctx.addIssue({ code: "custom", path: [], message: "Nothing to update: send privacy, password or results" });
    }
    if (body.password !== undefined && body.privacy !== undefined && body.privacy !== 2) {
      ctx.addIssue({ code: "custom", path: ["password"], message: PASSWORD_NEEDS_PRIVACY_2 });
    }
  });
export type ReportUpdateInput = z.output<typeof ReportUpdateBodySchema>;

// The code as sent; the route runs it through lib/purchases/normalise.ts, which answers the clean code or the
// reason it cannot be one (400 with that reason in fields.purchase_code).
const rawPurchaseCode = z
  .string({ error: (issue) => (issue.input === undefined ? "is required: the buyer's purchase code" : "must be a string") })
  // Far above the 100 characters a code may have: room for the invisible characters the normaliser removes.
  .max(1000, "must be at most 1000 characters (a purchase code has at most 100)");

export const PurchaseValidateBodySchema = z.strictObject({
  purchase_code: rawPurchaseCode.describe(
    "The purchase code as the buyer sent it, e.g. 11111111-1111-4111-8111-111111111111. Trimmed and cleaned of invisible characters; look-alike or control characters are refused with the reason",
  ),
});
export type PurchaseValidateInput = z.output<typeof PurchaseValidateBodySchema>;

// ---------------------------------------------------------------------------------------------------------
// The purchase checker: history of every check, and bulk jobs

export const PURCHASE_OUTCOMES = ["valid", "invalid", "failed"] as const;
export type PurchaseOutcome = (typeof PURCHASE_OUTCOMES)[number];
export const BULK_JOB_STATUSES = ["queued", "running", "waiting", "done", "cancelled"] as const;
export type BulkJobStatus = (typeof BULK_JOB_STATUSES)[number];
export const BULK_CODE_STATUSES = ["pending", "valid", "invalid", "failed", "cancelled"] as const;
export type BulkCodeStatus = (typeof BULK_CODE_STATUSES)[number];
/** Codes one bulk job may hold (before duplicates are merged). */
export const BULK_MAX_CODES = 500;

const UserRefSchema = z.object({ id: z.string().nullable(), email: z.string().nullable() }).describe("Who did it, as he was then");

export const PurchaseHistorySummarySchema = z
  .object({
    previous_checks: z.number().int().nonnegative().describe("Checks of the same code before this one, by anyone"),
    first_checked_at: isoTimestamp.nullable().describe("The first of them; null when there was none"),
    first_checked_by: z.string().nullable().describe("The email of who made the first check"),
  })
  .describe("What the history knew of this code before this check");

export const PurchaseCheckSchema = z.intersection(
  PurchaseValidationSchema,
  z.object({
    checked_code: z.string().describe("The code as checked, after cleaning"),
    notes: z.array(z.string()).describe("What the cleaning changed, in sentences (invisible characters removed, full-width digits read as ASCII)"),
    history: PurchaseHistorySummarySchema,
  }),
);
export type PurchaseCheck = z.infer<typeof PurchaseCheckSchema>;

export const PurchaseHistoryEntrySchema = z.object({
  id: z.number().int(),
  checked_at: isoTimestamp,
  code_last4: z.string().describe("The code's last 4 characters; the full code is kept only as a keyed hash"),
  outcome: z.enum(PURCHASE_OUTCOMES).describe("failed: the item service could not answer (see reason)"),
  reason: z.string().nullable().describe("Why the code is invalid or the check failed"),
  item_id: z.number().int().nullable(),
  item_name: z.string().nullable(),
  license_type: z.string().nullable(),
  supported_until: isoTimestamp.nullable(),
  checked_by: UserRefSchema,
  source: z.enum(["single", "bulk"]),
  bulk_job_id: z.string().nullable(),
});
export type PurchaseHistoryEntry = z.infer<typeof PurchaseHistoryEntrySchema>;

const historyFilters = {
  outcome: z.enum(PURCHASE_OUTCOMES, { error: oneOf(PURCHASE_OUTCOMES) }).optional().describe("Only this outcome"),
  user: z.string().max(320, "must be at most 320 characters").optional().describe("Who checked: a user id or an email"),
  ...timeRange,
};

/** Where a full purchase code may be searched for: never in a URL (proxies' access logs, the browser's downloads). */
export const PURCHASE_HISTORY_SEARCH_PATH = "/api/purchases/history/search";

export const PurchaseHistoryQuerySchema = z
  .strictObject({
    ...historyFilters,
    item_id: positiveIdParam.optional().describe("Only checks of purchases of this item"),
    code: z
      .never({ error: `is not accepted in a URL, which proxies and browsers keep: send the code in the body of POST ${PURCHASE_HISTORY_SEARCH_PATH}` })
      .optional()
      .describe(`Refused: a full code is searched with POST ${PURCHASE_HISTORY_SEARCH_PATH}`),
    per_page: perPage.optional(),
    page: page.optional(),
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);
export type PurchaseHistoryQuery = z.output<typeof PurchaseHistoryQuerySchema>;

export const PurchaseHistorySearchBodySchema = z
  .strictObject({
    code: rawPurchaseCode.describe("A full purchase code: found through its keyed hash (cleaned like a check)"),
    ...historyFilters,
    item_id: z.number({ error: "must be an item id (a whole number)" }).int("must be a whole number").positive("must be a positive item id").max(Number.MAX_SAFE_INTEGER).optional().describe("Only checks of purchases of this item"),
    per_page: z
      .union([z.literal(10), z.literal(25), z.literal(50), z.literal(100)], { error: "must be one of: 10, 25, 50, 100" })
      .optional()
      .describe("Checks per page: 25 (default), 10, 50 or 100; ignored by the CSV"),
    page: z.number({ error: "must be a page number" }).int("must be a whole number").min(1, "starts at 1").max(999_999).optional().describe("Page number, from 1; ignored by the CSV"),
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);
export type PurchaseHistorySearch = z.output<typeof PurchaseHistorySearchBodySchema>;

export const BulkCreateBodySchema = z.strictObject({
  codes: z
    .array(rawPurchaseCode, { error: "must be a list of purchase codes" })
    .min(1, "must hold at least one purchase code")
    .max(BULK_MAX_CODES, `must hold at most ${BULK_MAX_CODES} codes; split the list`)
    .describe(`Up to ${BULK_MAX_CODES} purchase codes as the buyers sent them; duplicates (after cleaning) are checked once`),
});
export type BulkCreateInput = z.output<typeof BulkCreateBodySchema>;

const bulkJobId = z.uuid({ error: "must be a bulk job id (a UUID, as POST /api/purchases/bulk answered)" });
export const BulkJobIdParamsSchema = z.object({ id: bulkJobId.describe("Bulk job id") });
/** The CSV route's segment is "<id>.csv". */
export const BulkJobCsvParamsSchema = z.object({
  id: z
    .string()
    .transform((value) => value.replace(/\.csv$/i, ""))
    .pipe(bulkJobId)
    .describe("Bulk job id"),
});

export const BulkResultSchema = z.object({
  index: z.number().int().nonnegative().describe("Where the code first appeared in the batch, from 0"),
  code: z.string().describe("The code as checked (cleaned); as sent when it could not be cleaned"),
  occurrences: z.number().int().positive().describe("How many times it appeared in the batch (checked once)"),
  status: z.enum(BULK_CODE_STATUSES),
  reason: z.string().nullable().describe("invalid, failed or cancelled: why"),
  notes: z.array(z.string()).describe("What the cleaning changed"),
  item_id: z.number().int().nullable(),
  item_name: z.string().nullable(),
  license_type: z.string().nullable(),
  supported_until: isoTimestamp.nullable(),
  checked_at: isoTimestamp.nullable(),
});
export type BulkResult = z.infer<typeof BulkResultSchema>;

export const BulkJobSummarySchema = z.object({
  id: z.string(),
  status: z.enum(BULK_JOB_STATUSES).describe("waiting: paused because the item service asked to slow down (see waiting_until)"),
  total: z.number().int().nonnegative().describe("Distinct codes"),
  done: z.number().int().nonnegative().describe("valid + invalid + failed; never goes back"),
  valid: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  cancelled: z.number().int().nonnegative().describe("Codes left unchecked by a cancel"),
  duplicates: z.number().int().nonnegative().describe("Codes in the batch that repeated an earlier one"),
  created_by: UserRefSchema,
  created_at: isoTimestamp,
  started_at: isoTimestamp.nullable(),
  finished_at: isoTimestamp.nullable(),
  expires_at: isoTimestamp.describe("When the job and its results are deleted (7 days after it was created)"),
  waiting_until: isoTimestamp.nullable().describe("status waiting: when checks resume"),
  eta_seconds: z.number().int().nonnegative().nullable().describe("Estimated time left; null until there is a rate to go by"),
});
export type BulkJobSummary = z.infer<typeof BulkJobSummarySchema>;

export const BulkJobSchema = BulkJobSummarySchema.extend({ results: z.array(BulkResultSchema).describe("In batch order") });
export type BulkJob = z.infer<typeof BulkJobSchema>;

// ---------------------------------------------------------------------------------------------------------
// Accounts: sign-in, the current user, the admin API. The user fields are validated with the same schemas as
// the users repository and the CLI (lib/auth/fields.ts), so a person reads the same message everywhere.

export const LoginBodySchema = z.strictObject({
  email: emailSchema.describe("The account's email (case-insensitive)"),
  password: z
    .string(textError("password"))
    .min(1, "password is required")
    // Longer than any password the policy allows: refused before any hashing work.
    .max(1024, "password is too long"),
});
export type LoginBody = z.output<typeof LoginBodySchema>;

export const SessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
});

export const CurrentSessionSchema = z.object({
  user: SessionUserSchema,
  permissions: z.array(z.enum(PERMISSIONS)).describe("What the role allows (the roles table in the README)"),
  expires_at: isoTimestamp.describe("When the session ends unless a request renews it (idle) — never after the absolute limit"),
});
export type CurrentSession = z.infer<typeof CurrentSessionSchema>;

export const UserSchema = z
  .object({
    id: z.string().describe("UUID"),
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    disabled: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .describe("A portal user. The password hash is never returned.");
export type UserOutput = z.infer<typeof UserSchema>;

export const UserIdParamsSchema = z.object({ id: z.uuid({ error: "must be a user id (a UUID, as GET /api/admin/users lists)" }).describe("User id") });
export const UserCreateBodySchema = createUserInput;
export const UserUpdateBodySchema = updateUserInput;

export const AuditRecordSchema = z.object({
  id: z.number().int(),
  at: isoTimestamp.describe("When it happened (the first time, when count > 1)"),
  user_id: z.string().nullable().describe("Who acted; null for the CLI or an unknown email"),
  user_email: z.string().nullable(),
  user_name: z.string().nullable().describe("The acting user's name as it is now; null when unknown or gone"),
  action: z.enum(AUDIT_ACTIONS),
  target: z
    .object({
      type: z.enum(["report", "project", "user", "purchase_code"]),
      id: z.string().describe("A report id, a project name, a user id, or a purchase code's keyed hash"),
      label: z.string().nullable().describe("Its name when the row was written: a report's URL, a user's email"),
      name: z.string().nullable().describe("A user target's name as it is now"),
    })
    .nullable()
    .describe("What it was about. A purchase code's last 4 characters, when kept, are in detail.last4"),
  outcome: z.enum(AUDIT_OUTCOMES).describe("success, failure or denied; a purchase check: valid, invalid or failed"),
  request_id: z.string().nullable().describe("The first request's, when count > 1"),
  detail: z.record(z.string(), z.unknown()).nullable(),
  summary: z.string().describe("The detail in words, for a person"),
  count: z.number().int().positive().describe("How many times: a denial repeated within 15 minutes is counted on one row"),
  last_at: isoTimestamp.nullable().describe("When it last happened, when count > 1"),
});
export type AuditRecordOutput = z.infer<typeof AuditRecordSchema>;

export const AuditListQuerySchema = z
  .strictObject({
    user: z.string().max(320, "must be at most 320 characters").optional().describe("A user id or an email"),
    action: z.enum(AUDIT_ACTIONS, { error: oneOf(AUDIT_ACTIONS) }).optional().describe("Only this action"),
    ...timeRange,
    per_page: perPage.optional(),
    page: page.optional(),
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);
export type AuditListQuery = z.output<typeof AuditListQuerySchema>;

function bound(value: string, side: "start" | "end"): number {
  const time = Date.parse(value);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && side === "end" ? time + 86_400_000 - 1 : time;
}
