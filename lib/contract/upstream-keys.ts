// The upstream connections as the admin API and page show them: per area, where its key is kept, the key's
// fingerprint and last 4 characters (never the key), the keys stored in the portal, and the area's health.
import { z } from "zod";

import { AREAS } from "./areas";
import { isoTimestamp } from "./common";
import { BreakerSchema } from "./health";

export const UpstreamAreaParamsSchema = z.object({
  area: z.enum(AREAS, { error: 'must be "reports" (area A) or "items" (area B)' }),
});

export const UpstreamKeyParamsSchema = UpstreamAreaParamsSchema.extend({
  id: z
    .uuid({ error: "must be a stored key's id (a UUID, as GET /api/admin/upstream-keys lists)" })
    .transform((id) => id.toLowerCase()),
});

/** The same rules as REPORTS_API_KEY / ITEMS_API_KEY (lib/config/env.ts). The key never appears in an answer. */
export const UpstreamKeyBodySchema = z.strictObject({
  key: z
    .string({ error: "is required: the new key, as the upstream's dashboard shows it" })
    .min(8, "is too short to be an API key (at least 8 characters)")
    .max(4096, "is too long (at most 4096 characters)")
    .regex(
      /^[\x21-\x7e]+$/,
      "must be printable ASCII without spaces or line breaks (check for a pasted newline or quotes)",
    ),
});

export const KEY_SOURCES = ["environment", "portal", "none"] as const;

export const KeyFactsSchema = z.object({
  fingerprint: z
    .string()
    .describe(
      "The first 8 hex characters of an HMAC-SHA256 of the key under a secret of the server: it tells keys apart and cannot be checked against a guess elsewhere",
    ),
  last4: z
    .string()
    .nullable()
    .describe("The key's last 4 characters; null for a key under 16 characters, too short to show any of it"),
});

export const StoredKeySchema = KeyFactsSchema.extend({
  id: z.uuid(),
  active: z.boolean().describe("The key in use; the others are disabled, kept so that a rotation can be undone"),
  created_at: isoTimestamp,
  created_by: z.string().nullable(),
  activated_at: z.nullable(isoTimestamp),
  activated_by: z.string().nullable(),
});

export const WindowSummarySchema = z.object({
  requests: z.number().int(),
  errors: z.number().int().describe("No answer, 5xx, 429, 401 or 403"),
  error_rate: z.number(),
  p50_ms: z
    .number()
    .nullable()
    .describe("At most this many ms (a histogram bucket's upper bound); null without requests"),
  p95_ms: z.number().nullable(),
});

export const SeriesPointSchema = WindowSummarySchema.extend({ from: isoTimestamp });

export const UpstreamAreaStatusSchema = z.object({
  area: z.enum(AREAS),
  configured: z.boolean().describe("The area's base URL is set"),
  base_url: z.string().nullable(),
  source: z
    .enum(KEY_SOURCES)
    .describe("Where the key in use is kept: the environment (which wins), the portal, or none yet"),
  portal_keys: z.boolean().describe("A key can be set here: GATEHOUSE_KEK is set and the environment does not decide"),
  key: KeyFactsSchema.extend({ set_at: z.nullable(isoTimestamp), set_by: z.string().nullable() }).nullable(),
  stored: z.array(StoredKeySchema),
  rejected: z
    .object({ at: isoTimestamp, fingerprint: z.string() })
    .nullable()
    .describe("The upstream rejected the key in use (401/403) and it has not worked since"),
  health: z.object({
    last_success_at: z.nullable(isoTimestamp),
    last_failure_at: z.nullable(isoTimestamp),
    breaker: BreakerSchema,
    hour: WindowSummarySchema,
    day: WindowSummarySchema,
    hour_series: z.array(SeriesPointSchema).describe("12 points of 5 minutes, oldest first"),
    day_series: z.array(SeriesPointSchema).describe("24 points of 1 hour, oldest first"),
  }),
});
export type UpstreamAreaStatus = z.infer<typeof UpstreamAreaStatusSchema>;

export const KeyChangeSchema = z.object({
  area: z.enum(AREAS),
  old_fingerprint: z.string().nullable(),
  new_fingerprint: z.string().nullable(),
});

export const KeyChangeResultSchema = z.object({ change: KeyChangeSchema, status: UpstreamAreaStatusSchema });

export const KeyTestResultSchema = KeyFactsSchema.extend({ accepted: z.literal(true) });
