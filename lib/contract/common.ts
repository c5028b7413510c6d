// What every part of the contract shares: timestamps, the page envelope and the error envelope, and the query
// rules of every list (page, page size, search text, a time range). Query values arrive as strings; an empty
// value (`?search=`) counts as absent. Unknown fields are refused, so a typo (`?perpage=50`) is a 400 rather than
// silently ignored.
import { z } from "zod";

import { endOfDayIn, startOfDayIn, TimeZoneSchema } from "./time-zone";

export { isoTimestamp, positiveIdParam } from "./fields";

// ---------------------------------------------------------------------------------------------------------
// Envelopes

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

/** The `meta` of page `page` of `total` rows, `perPage` a page: an empty list still has one (empty) page. */
export function pageMeta(page: number, perPage: number, total: number): PageMeta {
  return { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

export const dataEnvelope = <T extends z.core.$ZodType>(data: T) => z.object({ data });
export const pageEnvelope = <T extends z.core.$ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: PageMetaSchema });

export const ErrorEnvelopeSchema = z.object({
  error: z.object({
    code: z.string().describe("Stable machine-readable code, e.g. invalid_input, not_found, upstream_timeout"),
    message: z.string().describe("What went wrong and what to do, for a person"),
    fields: z.record(z.string(), z.string()).optional().describe("invalid_input: one message per bad field"),
    suggestion: z
      .object({ slip: z.string(), code: z.string().nullable() })
      .optional()
      .describe("A refused purchase code one slip from a purchase code's shape: the slip, and the corrected code"),
    request_id: z.string().describe("Also in the X-Request-Id header and in the server's log line"),
  }),
});

// ---------------------------------------------------------------------------------------------------------
// Query rules

export { oneOf, page, perPage } from "./fields";

export const EmptyQuerySchema = z.strictObject({});

/**
 * `from` and `to` of a time filter (audit log, purchase history): a date is the whole day in `time_zone` (UTC when
 * none is given), or a date-time.
 */
const instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: "must be a date or date-time, such as 2025-03-01 or 2025-03-01T12:00:00Z",
  })
  .describe("A date (the whole day in time_zone, UTC by default) or an ISO 8601 date-time");
export const timeRange = {
  from: instant.optional().describe("From this moment (inclusive); a bare date means its first millisecond"),
  to: instant.optional().describe("Up to this moment (inclusive); a bare date means its last millisecond"),
  time_zone: TimeZoneSchema.optional().describe(
    "The IANA zone a bare date of from and to is a day of, e.g. Europe/Berlin (default UTC); the portal sends the person's",
  ),
};
export const fromNotAfterTo = (q: { from?: string; to?: string; time_zone?: string }) =>
  !q.from ||
  !q.to ||
  timeBound(q.from, "start", q.time_zone).getTime() <= timeBound(q.to, "end", q.time_zone).getTime();
export const FROM_AFTER_TO = { message: "must not be after to", path: ["from"] };

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The moment a time filter's `from` (side "start") or `to` (side "end") names, both inclusive. A bare date is the
 * whole day in `zone` (UTC by default): `from` its first millisecond, `to` its last. A date-time is that moment,
 * whatever its offset.
 */
export function timeBound(value: string, side: "start" | "end", zone = "UTC"): Date {
  if (!BARE_DATE.test(value)) return new Date(Date.parse(value));
  return side === "start" ? startOfDayIn(value, zone) : new Date(endOfDayIn(value, zone).getTime() - 1);
}
