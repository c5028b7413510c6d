// The purchase checker as the portal API shows and accepts it: a check of one code, the history of every check,
// and bulk jobs.
import { z } from "zod";

import {
  FROM_AFTER_TO,
  fromNotAfterTo,
  isoTimestamp,
  oneOf,
  page,
  pageEnvelope,
  perPage,
  positiveIdParam,
  timeRange,
  type PageMeta,
} from "./common";
import { LastVerdictSchema, PreviousPurchaseSchema, PurchaseLifecycleSchema } from "./purchase-lifecycle";
import { TimeZoneSchema } from "./time-zone";
import {
  BULK_CODE_STATUSES,
  BULK_RESULT_FILTERS,
  BULK_RESULT_SEARCH_MAX_LENGTH,
  BULK_JOB_STATUSES,
  BULK_MAX_CODES,
  DEFAULT_PER_PAGE,
  MAX_PAGE,
  MAX_USER_FILTER_LENGTH,
  PER_PAGE_CHOICES,
  PURCHASE_CODE_MAX_LENGTH,
  PURCHASE_OUTCOMES,
  type BulkResultFilter,
  RAW_PURCHASE_CODE_MAX_LENGTH,
  SUPPORT_STATES,
  HELPDESK_SYSTEMS,
  HELPDESK_TICKET_FILTER,
  HELPDESK_TICKET_ID_MAX_LENGTH,
  HELPDESK_TICKET_URL_MAX_LENGTH,
  PURCHASE_CHECK_SOURCES,
} from "./values";

export const HelpdeskTicketSchema = z
  .strictObject(
    {
      system: z.enum(HELPDESK_SYSTEMS, { error: oneOf(HELPDESK_SYSTEMS) }).describe("The helpdesk the ticket is in"),
      id: z
        .string({ error: "is required: the ticket's id in its helpdesk, as text" })
        .trim()
        .min(1, "must not be empty: the ticket's id in its helpdesk")
        .max(HELPDESK_TICKET_ID_MAX_LENGTH, `must be at most ${HELPDESK_TICKET_ID_MAX_LENGTH} characters`)
        .regex(/^[\x21-\x7e]*$/, "must be printable ASCII without spaces, as helpdesks number their tickets")
        .describe("The ticket's id (or number) in its helpdesk"),
      url: z
        .url({ protocol: /^https?$/, error: "must be the ticket's https:// (or http://) address" })
        .max(HELPDESK_TICKET_URL_MAX_LENGTH, `must be at most ${HELPDESK_TICKET_URL_MAX_LENGTH} characters`)
        .optional()
        .describe("The ticket's address in its helpdesk, linked from the history"),
    },
    {
      error: (issue) =>
        issue.input === undefined
          ? "is required: the ticket's system and id"
          : 'must be the ticket, as {"system", "id"} (and its "url")',
    },
  )
  .describe("The ticket the codes were found in: kept with each check, so the history can be read by ticket");
export type HelpdeskTicket = z.output<typeof HelpdeskTicketSchema>;

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
  supported_until: z
    .optional(isoTimestamp)
    .describe("Omitted when support is disabled or the purchase is not supported"),
  downloaded: z.boolean(),
  date: isoTimestamp,
});
export type Purchase = z.infer<typeof PurchaseSchema>;

export const PurchaseValidationSchema = z.discriminatedUnion("valid", [
  z.object({ valid: z.literal(true), purchase: PurchaseSchema }),
  z.object({
    valid: z.literal(false),
    message: z.string().describe('Why the code is not valid, e.g. "Invalid purchase code"'),
  }),
]);
export type PurchaseValidation = z.infer<typeof PurchaseValidationSchema>;

// The code as sent; the route runs it through lib/purchases/normalise.ts, which answers the clean code or the
// reason it cannot be one (400 with that reason in fields.purchase_code).
export const rawPurchaseCode = z
  .string({
    error: (issue) => (issue.input === undefined ? "is required: the buyer's purchase code" : "must be a string"),
  })
  // Far above the 100 characters a code may have: room for the invisible characters the normaliser removes.
  .max(
    RAW_PURCHASE_CODE_MAX_LENGTH,
    `must be at most ${RAW_PURCHASE_CODE_MAX_LENGTH} characters (a purchase code has at most ${PURCHASE_CODE_MAX_LENGTH})`,
  );
const CLEANED = `At most ${PURCHASE_CODE_MAX_LENGTH} characters once cleaned (up to ${RAW_PURCHASE_CODE_MAX_LENGTH} as sent: invisible characters are removed, look-alike or control characters refused with the reason)`;

export const PurchaseValidateBodySchema = z.strictObject({
  purchase_code: rawPurchaseCode.describe(
    `The purchase code as the buyer sent it, e.g. 11111111-1111-4111-8111-111111111111. ${CLEANED}`,
  ),
  ticket: HelpdeskTicketSchema.optional().describe(
    "The helpdesk ticket the check is made for (the checker opened from a helpdesk's card): kept with the check in the history",
  ),
});

const UserRefSchema = z
  .object({ id: z.string().nullable(), email: z.string().nullable() })
  .describe("Who did it, as he was then");

export const PurchaseHistorySummarySchema = z
  .object({
    previous_checks: z.number().int().nonnegative().describe("Checks of the same code before this one, by anyone"),
    first_checked_at: z.nullable(isoTimestamp).describe("The first of them; null when there was none"),
    first_checked_by: z.string().nullable().describe("The email of who made the first check"),
  })
  .describe("What the history knew of this code before this check");
export type PurchaseHistorySummary = z.infer<typeof PurchaseHistorySummarySchema>;

/** A code one plausible slip from the UUID shape (lib/purchases/slips.ts): the slip named, and the mend. */
export const PurchaseCodeSuggestionSchema = z
  .object({
    slip: z.string().describe('The slip in words, e.g. "letter O at position 27 — did you mean 0?"'),
    code: z
      .string()
      .nullable()
      .describe("The corrected code (canonical UUID); null when the mend cannot be known (a missing character)"),
  })
  .describe("The code is one slip from a purchase code's shape: what the slip is, and the corrected code");

const checkedCode = {
  checked_code: z.string().describe("The code as checked, after cleaning"),
  notes: z
    .array(z.string())
    .describe(
      "What the cleaning changed, in sentences (invisible characters removed, full-width digits read as ASCII)",
    ),
  history: PurchaseHistorySummarySchema,
  lifecycle: PurchaseLifecycleSchema,
};

/** The item service answered: whether the code is valid now. */
const FreshCheckSchema = z.intersection(
  PurchaseValidationSchema,
  z.object({
    stale: z.literal(false).describe("The item service answered this check"),
    ...checkedCode,
    suggestion: z
      .nullable(PurchaseCodeSuggestionSchema)
      .describe("Not valid, and one slip from a purchase code's shape (PURCHASE_CODE_FORMAT auto or uuid); else null"),
  }),
);

/** The item service did not answer (timeout, 5xx, its breaker open) and the code was checked before. */
const StaleCheckSchema = z.object({
  stale: z
    .literal(true)
    .describe("The item service did not answer: this is the last verdict it gave, re-checked when it answers again"),
  valid: z.boolean().describe("Whether the last verdict was valid"),
  message: z.string().describe('The verdict in words, e.g. "Valid as of 3 days ago, checked by vera@example.com"'),
  failure: z.string().describe("Why the item service gave no answer this time"),
  last_verdict: LastVerdictSchema,
  ...checkedCode,
});

export const PurchaseCheckSchema = z
  .union([FreshCheckSchema, StaleCheckSchema])
  .describe(
    "A fresh verdict (stale: false), or, while the item service is down, the last verdict about a code checked before (stale: true)",
  );
export type PurchaseCheck = z.infer<typeof PurchaseCheckSchema>;

/** The purchase a code stands for, as the item service told it: a history row and a bulk result both carry it. */
const purchasedItemFields = {
  item_id: z.number().int().nullable(),
  item_name: z.string().nullable(),
  license_type: z.string().nullable(),
  supported_until: z.nullable(isoTimestamp),
};

export const PurchaseHistoryEntrySchema = z.object({
  id: z.number().int(),
  checked_at: isoTimestamp,
  code_last4: z.string().describe("The code's last 4 characters; the full code is kept only as a keyed hash"),
  outcome: z
    .enum(PURCHASE_OUTCOMES)
    .describe(
      "revoked: valid before, refused now (a reversed sale); failed: the item service could not answer (see reason)",
    ),
  reason: z.string().nullable().describe("Why the code is invalid or the check failed"),
  ...purchasedItemFields,
  support: z
    .enum(SUPPORT_STATES)
    .nullable()
    .describe(
      "valid: the purchase's support when it was checked (expired: a real purchase whose support had ended); null otherwise",
    ),
  checked_by: UserRefSchema,
  source: z
    .enum(PURCHASE_CHECK_SOURCES)
    .describe("single: the checker; bulk: a bulk job; helpdesk: a ticket's lookup; sweep: Gatehouse's own re-check"),
  bulk_job_id: z.uuid().nullable(),
  ticket: z
    .object({ system: z.enum(HELPDESK_SYSTEMS), id: z.string(), url: z.string().nullable() })
    .nullable()
    .describe("The helpdesk ticket the check was made for; null otherwise"),
  shared_suspected: z.boolean().describe("This check found the code checked from too many places: possibly shared"),
});
export type PurchaseHistoryEntry = z.infer<typeof PurchaseHistoryEntrySchema>;

const historyFilters = {
  outcome: z
    .enum(PURCHASE_OUTCOMES, { error: oneOf(PURCHASE_OUTCOMES) })
    .optional()
    .describe("Only this outcome"),
  user: z
    .string()
    .max(MAX_USER_FILTER_LENGTH, `must be at most ${MAX_USER_FILTER_LENGTH} characters`)
    .optional()
    .describe("Who checked: a user id or an email"),
  ticket: z
    .string()
    .regex(
      HELPDESK_TICKET_FILTER,
      `must be a helpdesk and a ticket id, like zendesk:4211 (helpdesks: ${HELPDESK_SYSTEMS.join(", ")})`,
    )
    .optional()
    .describe("Only checks made for this helpdesk ticket, written system:id (e.g. zendesk:4211)"),
  ...timeRange,
};

/** Where a full purchase code may be searched for: never in a URL (proxies' access logs, the browser's downloads). */
export const PURCHASE_HISTORY_SEARCH_PATH = "/api/purchases/history/search";

const historyQueryFilters = {
  ...historyFilters,
  item_id: z.optional(positiveIdParam).describe("Only checks of purchases of this item"),
  code: z
    .never({
      error: `is not accepted in a URL, which proxies and browsers keep: send the code in the body of POST ${PURCHASE_HISTORY_SEARCH_PATH}`,
    })
    .optional()
    .describe(`Refused: a full code is searched with POST ${PURCHASE_HISTORY_SEARCH_PATH}`),
};

export const PurchaseHistoryQuerySchema = z
  .strictObject({
    ...historyQueryFilters,
    per_page: z.optional(perPage(DEFAULT_PER_PAGE.purchaseHistory)),
    page: z.optional(page),
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);
export type PurchaseHistoryQuery = z.output<typeof PurchaseHistoryQuerySchema>;

/** The list's paging, which the CSV (every page) takes from the list's link and ignores. */
export const PURCHASE_HISTORY_PAGING = ["page", "per_page"] as const;

/** GET /api/purchases/history.csv: the list's filters; its paging is ignored, neither read nor refused. */
export const PurchaseHistoryExportQuerySchema = z
  .strictObject(historyQueryFilters)
  .refine(fromNotAfterTo, FROM_AFTER_TO);

export const PurchaseHistorySearchBodySchema = z
  .strictObject({
    code: rawPurchaseCode.describe(
      `A full purchase code, found through its keyed hash (cleaned like a check). ${CLEANED}`,
    ),
    ...historyFilters,
    item_id: z
      .number({ error: "must be an item id (a whole number)" })
      .int("must be a whole number")
      .positive("must be a positive item id")
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe("Only checks of purchases of this item"),
    per_page: z
      .union(
        PER_PAGE_CHOICES.map((size) => z.literal(size)),
        { error: `must be one of: ${PER_PAGE_CHOICES.join(", ")}` },
      )
      .optional()
      .meta({
        description: `Checks per page: ${PER_PAGE_CHOICES.join(", ")}; ignored by the CSV`,
        default: DEFAULT_PER_PAGE.purchaseHistory,
      }),
    page: z
      .number({ error: "must be a page number" })
      .int("must be a whole number")
      .min(1, "starts at 1")
      .max(MAX_PAGE)
      .optional()
      .meta({ description: "Page number, from 1; ignored by the CSV", default: 1 }),
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);

export const BulkCreateBodySchema = z.strictObject({
  codes: z
    .array(rawPurchaseCode, { error: "must be a list of purchase codes" })
    .min(1, "must hold at least one purchase code")
    .max(BULK_MAX_CODES, `must hold at most ${BULK_MAX_CODES} codes; split the list`)
    .describe(
      `Up to ${BULK_MAX_CODES} purchase codes as the buyers sent them; duplicates (after cleaning) are checked once`,
    ),
});

// A UUID in either letter case; the store keeps ids in lower case.
const bulkJobId = z
  .uuid({ error: "must be a bulk job id (a UUID, as POST /api/purchases/bulk answered)" })
  .transform((id) => id.toLowerCase());
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
  reason: z
    .string()
    .nullable()
    .describe(
      "invalid, revoked, failed or cancelled: why (revoked: what was bought and when it was valid; failed with a last_verdict: that verdict in words)",
    ),
  notes: z.array(z.string()).describe("What the cleaning changed"),
  ...purchasedItemFields,
  previously_valid: z
    .nullable(PreviousPurchaseSchema)
    .describe("revoked: what was bought, and when it was last valid (the item fields name it too); else null"),
  last_verdict: z
    .nullable(LastVerdictSchema)
    .describe(
      "failed because the item service did not answer, for a code checked before: its last verdict (not fresh); else null",
    ),
  support: z
    .enum(SUPPORT_STATES)
    .nullable()
    .describe(
      "valid: the purchase's support when it was checked (expired: a real purchase whose support has ended); null otherwise",
    ),
  retryable: z.boolean().describe("failed: whether a re-check may pass (network, timeout, 429, 5xx)"),
  refused: z
    .boolean()
    .describe(
      "invalid: the code cannot be a purchase code (see reason); it was never sent, and is not counted as invalid",
    ),
  suggestion: z
    .nullable(PurchaseCodeSuggestionSchema)
    .describe("invalid or refused, and one slip from a purchase code's shape; else null"),
  checked_at: z.nullable(isoTimestamp),
});
export type BulkResult = z.infer<typeof BulkResultSchema>;

export const BulkJobSummarySchema = z.object({
  id: z.uuid(),
  status: z
    .enum(BULK_JOB_STATUSES)
    .describe("waiting: paused because the item service asked to slow down (see waiting_until)"),
  total: z.number().int().nonnegative().describe("Distinct codes"),
  done: z.number().int().nonnegative().describe("valid + invalid + revoked + failed + refused; never goes back"),
  valid: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative().describe("Codes the item service answered are not valid"),
  revoked: z
    .number()
    .int()
    .nonnegative()
    .describe("Codes seen valid before that the item service refuses now (probably refunded or reversed sales)"),
  refused: z
    .number()
    .int()
    .nonnegative()
    .describe("Codes that cannot be purchase codes, refused before any call (not counted as invalid)"),
  failed: z.number().int().nonnegative(),
  cancelled: z.number().int().nonnegative().describe("Codes left unchecked by a cancel"),
  settling: z
    .boolean()
    .describe(
      "cancelled, and checks that were under way at the cancel have yet to write their results (counts may still change)",
    ),
  duplicates: z.number().int().nonnegative().describe("Codes in the batch that repeated an earlier one"),
  created_by: UserRefSchema,
  created_at: isoTimestamp,
  started_at: z.nullable(isoTimestamp),
  finished_at: z.nullable(isoTimestamp),
  expires_at: isoTimestamp.check(z.describe("When the job and its results are deleted (7 days after it was created)")),
  waiting_until: z.nullable(isoTimestamp).describe("status waiting: when checks resume"),
  eta_seconds: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe("Estimated time left; null until there is a rate to go by"),
});
export type BulkJobSummary = z.infer<typeof BulkJobSummarySchema>;

export const BulkJobSchema = BulkJobSummarySchema.extend({
  results: z.array(BulkResultSchema).describe("In batch order"),
});
export type BulkJob = z.infer<typeof BulkJobSchema>;

/** GET /api/purchases/bulk/{id}.csv: the zone its times are given in. */
export const BulkExportQuerySchema = z.strictObject({
  time_zone: TimeZoneSchema.optional().describe(
    "checked_at with this IANA zone's offset (2026-11-27T17:12:05.000-08:00) instead of UTC; the portal sends the person's",
  ),
});

export const BulkResultsQuerySchema = z.strictObject({
  page: z.optional(page),
  per_page: z.optional(perPage(DEFAULT_PER_PAGE.bulkResults)),
  status: z
    .enum(BULK_RESULT_FILTERS, { error: oneOf(BULK_RESULT_FILTERS) })
    .optional()
    .describe(
      "Only these rows: a status (revoked: valid before, refused now), support_expired (valid, support ended) or retryable (failed, may pass on a re-check)",
    ),
  q: z
    .string()
    .max(BULK_RESULT_SEARCH_MAX_LENGTH, `must be at most ${BULK_RESULT_SEARCH_MAX_LENGTH} characters`)
    .optional()
    .describe("Search within the results: part of a code (any case), an item name, a licence or a reason"),
});
export type BulkResultsQuery = z.output<typeof BulkResultsQuerySchema>;

export const BulkResultCountsSchema = z
  .object({
    all: z.number().int().nonnegative(),
    ...Object.fromEntries(BULK_RESULT_FILTERS.map((filter) => [filter, z.number().int().nonnegative()])),
  })
  .describe("Rows matching the search under each filter (all: without a status filter)");

export const BulkResultsPageSchema = pageEnvelope(BulkResultSchema).extend({
  job: BulkJobSummarySchema,
  counts: BulkResultCountsSchema,
});
export type BulkResultsPage = {
  data: BulkResult[];
  meta: PageMeta;
  job: BulkJobSummary;
  counts: Record<"all" | BulkResultFilter, number>;
};

export const BulkRecheckSchema = BulkJobSummarySchema.extend({
  rechecked: z.number().int().positive().describe("Failed rows sent back to be checked again"),
});
