// The audit log as the portal API shows it, and the query of GET /api/admin/audit.
import { z } from "zod";

import { FROM_AFTER_TO, fromNotAfterTo, isoTimestamp, oneOf, page, perPage, timeRange } from "./common";
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, AUDIT_TARGET_TYPES, DEFAULT_PER_PAGE, MAX_USER_FILTER_LENGTH } from "./values";

export const AuditRecordSchema = z.object({
  id: z.number().int(),
  at: isoTimestamp.check(z.describe("When it happened (the first time, when count > 1)")),
  user_id: z.string().nullable().describe("Who acted; null for the CLI or an unknown email"),
  user_email: z.string().nullable(),
  user_name: z.string().nullable().describe("The acting user's name as it is now; null when unknown or gone"),
  action: z.enum(AUDIT_ACTIONS),
  target: z
    .object({
      type: z.enum(AUDIT_TARGET_TYPES),
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
  count: z
    .number()
    .int()
    .positive()
    .describe("How many times: a denial repeated within 15 minutes is counted on one row"),
  last_at: z.nullable(isoTimestamp).describe("When it last happened, when count > 1"),
});
export type AuditRecordOutput = z.infer<typeof AuditRecordSchema>;

export const AuditListQuerySchema = z
  .strictObject({
    user: z
      .string()
      .max(MAX_USER_FILTER_LENGTH, `must be at most ${MAX_USER_FILTER_LENGTH} characters`)
      .optional()
      .describe("A user id or an email"),
    action: z
      .enum(AUDIT_ACTIONS, { error: oneOf(AUDIT_ACTIONS) })
      .optional()
      .describe("Only this action"),
    ...timeRange,
    per_page: z.optional(perPage(DEFAULT_PER_PAGE.audit)),
    page: z.optional(page),
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);

/** What GET /api/admin/audit/export writes: newline-delimited JSON (one AuditRecord per line) or CSV. */
export const AUDIT_EXPORT_FORMATS = ["ndjson", "csv"] as const;

export const AuditExportQuerySchema = z
  .strictObject({
    format: z
      .enum(AUDIT_EXPORT_FORMATS, { error: oneOf(AUDIT_EXPORT_FORMATS) })
      .describe(
        "ndjson: one audit row per line, as GET /api/admin/audit shows it; csv: a header row, then one row each",
      ),
    user: AuditListQuerySchema.shape.user,
    action: AuditListQuerySchema.shape.action,
    ...timeRange,
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);
