// API tokens as the portal API shows and accepts them. The secret appears once, in the answer to its creation;
// the list never carries it. No `server-only` and no Node modules: the tokens page imports the values.
import { z } from "zod";

import { onlyFields, textError } from "./accounts";
import { isoTimestamp, oneOf } from "./common";
import {
  MAX_TOKEN_DAYS,
  MAX_TOKEN_IP_RANGES,
  MAX_TOKEN_MONTHLY_QUOTA,
  MAX_TOKEN_RATE_LIMIT_PER_MINUTE,
  TOKEN_EXPIRY_DAYS,
  TOKEN_SCOPES,
  TOKEN_USAGE_OUTCOMES,
} from "./values";

const LIMIT_FIELDS = ["rate_limit_per_minute", "monthly_quota"];
const TOKEN_FIELDS = [
  "name",
  "scopes",
  "expires_in_days",
  "expires_at",
  "never_expires",
  "allowed_ips",
  "user_id",
  ...LIMIT_FIELDS,
];

/** A whole number from 1 to `max`, or null (none); the sentence names the field and its bounds. */
const limitField = (name: string, max: number, what: string) =>
  z
    .int({ error: `${name} must be a whole number from 1 to ${max.toLocaleString("en")}, or empty (null) for none` })
    .min(1, `${name} must be at least 1, or empty (null) for none`)
    .max(max, `${name} must be at most ${max.toLocaleString("en")}`)
    .nullable()
    .optional()
    .describe(what);

const rateLimitPerMinute = limitField(
  "rate_limit_per_minute",
  MAX_TOKEN_RATE_LIMIT_PER_MINUTE,
  "Its own limit of requests a minute, across every instance (429 rate_limited past it); null or absent: none of its own (its owner's limit still holds)",
);
const monthlyQuota = limitField(
  "monthly_quota",
  MAX_TOKEN_MONTHLY_QUOTA,
  "Its own quota of requests a calendar month, UTC (429 quota_exceeded past it, until the month turns); null or absent: none",
);

export const TokenCreateBodySchema = z
  .strictObject(
    {
      name: z
        .string(textError("name"))
        .trim()
        .min(1, "name must not be empty")
        .max(100, "name must be at most 100 characters")
        .describe("What the token is for, e.g. helpdesk"),
      scopes: z
        .array(z.enum(TOKEN_SCOPES, { error: oneOf(TOKEN_SCOPES) }), { error: "scopes must be a list" })
        .min(1, "scopes must name at least one scope")
        .refine((scopes) => new Set(scopes).size === scopes.length, "scopes must not repeat a scope")
        .describe("What it may do: each scope is a permission the owner's role must have"),
      expires_in_days: z
        .union(
          TOKEN_EXPIRY_DAYS.map((days) => z.literal(days)),
          { error: `expires_in_days must be one of: ${TOKEN_EXPIRY_DAYS.join(", ")}` },
        )
        .optional()
        .describe("Its lifetime in days"),
      expires_at: z.iso
        .datetime({ offset: true, error: "expires_at must be an ISO 8601 date-time, such as 2027-01-31T00:00:00Z" })
        .optional()
        .describe(`Or the moment it expires (in the future, at most ${MAX_TOKEN_DAYS} days away)`),
      never_expires: z
        .literal(true, { error: "never_expires must be true when given" })
        .optional()
        .describe("Or never (a service account's token only)"),
      allowed_ips: z
        .array(z.string({ error: "each allowed_ips entry must be text" }).trim().min(1).max(50), {
          error: "allowed_ips must be a list",
        })
        .max(MAX_TOKEN_IP_RANGES, `allowed_ips may list at most ${MAX_TOKEN_IP_RANGES} ranges`)
        .optional()
        .describe("Client addresses or CIDR ranges it may be used from (e.g. 203.0.113.0/24); any address when absent"),
      user_id: z
        .uuid({ error: "user_id must be a user id (a UUID)" })
        .transform((id) => id.toLowerCase())
        .optional()
        .describe("Admins: a service account to make it for; yourself when absent"),
      rate_limit_per_minute: rateLimitPerMinute,
      monthly_quota: monthlyQuota,
    },
    onlyFields(TOKEN_FIELDS),
  )
  .refine(
    (body) => [body.expires_in_days, body.expires_at, body.never_expires].filter((v) => v !== undefined).length === 1,
    {
      message: "give exactly one of expires_in_days, expires_at or never_expires",
      path: ["expires_in_days"],
      when: (payload) => payload.issues.length === 0,
    },
  );
export type TokenCreateBody = z.output<typeof TokenCreateBodySchema>;

/** PATCH /api/tokens/{id}: a token's own limits; a field left out stays, null removes it. */
export const TokenUpdateBodySchema = z
  .strictObject({ rate_limit_per_minute: rateLimitPerMinute, monthly_quota: monthlyQuota }, onlyFields(LIMIT_FIELDS))
  .refine((body) => body.rate_limit_per_minute !== undefined || body.monthly_quota !== undefined, {
    message: "rate_limit_per_minute or monthly_quota must be given, or both (null removes a limit)",
    path: ["rate_limit_per_minute"],
    when: (payload) => payload.issues.length === 0,
  });
export type TokenUpdateBody = z.output<typeof TokenUpdateBodySchema>;

/** GET /api/admin/tokens: every person's tokens, or one person's. */
export const TokenListQuerySchema = z.strictObject(
  {
    user_id: z
      .uuid({ error: "user_id must be a user id (a UUID)" })
      .transform((id) => id.toLowerCase())
      .optional()
      .describe("Only this person's tokens"),
  },
  onlyFields(["user_id"]),
);

export const TokenIdParamsSchema = z.object({
  id: z
    .uuid({ error: "must be a token id (a UUID, as GET /api/tokens lists)" })
    .transform((id) => id.toLowerCase())
    .describe("Token id"),
});

export const TokenSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    scopes: z.array(z.enum(TOKEN_SCOPES)),
    user: z
      .object({ id: z.uuid(), email: z.string(), service: z.boolean() })
      .describe("The owner: the token acts as him"),
    allowed_ips: z.array(z.string()).nullable().describe("The client ranges it may be used from; null: any"),
    created_at: isoTimestamp,
    expires_at: z.nullable(isoTimestamp).describe("null: never"),
    last_used_at: z.nullable(isoTimestamp),
    last_used_ip: z.string().nullable(),
    revoked_at: z.nullable(isoTimestamp),
    status: z.enum(["active", "expired", "revoked"]),
    rate_limit_per_minute: z.int().nullable().describe("Its own limit of requests a minute; null: none"),
    monthly_quota: z.int().nullable().describe("Its own quota of requests a calendar month (UTC); null: none"),
  })
  .describe("An API token. The secret is never listed.");
export type TokenOutput = z.infer<typeof TokenSchema>;

export const CreatedTokenSchema = TokenSchema.extend({
  secret: z.string().describe("gth_…: shown this once. Send it as Authorization: Bearer <secret>"),
});

/** One token's requests on one UTC day, for one operation and outcome, with the upstream calls made for them. */
export const TokenUsageRowSchema = z.object({
  token_id: z.uuid(),
  day: z.iso.date().describe("UTC day"),
  operation: z.string().describe("The operation's id, as the OpenAPI document names it"),
  outcome: z.enum(TOKEN_USAGE_OUTCOMES),
  count: z.int(),
  upstream_calls: z
    .object({ reports: z.int(), items: z.int() })
    .describe("Calls made to each upstream (area A: reports, area B: items) while answering them"),
});

export const TokenUsageSchema = z
  .object({
    from: z.iso.date().describe("The first day counted (UTC)"),
    to: z.iso.date().describe("The last day counted (UTC): today"),
    rows: TokenUsageRowSchema.array(),
    top_upstream: z
      .object({
        reports: z.array(z.object({ token_id: z.uuid(), calls: z.int() })),
        items: z.array(z.object({ token_id: z.uuid(), calls: z.int() })),
      })
      .describe("Per upstream, the tokens that used most of its calls in these days, most first (at most 5)"),
  })
  .describe(
    "The last 30 days of usage of the tokens you manage (an admin: every token). Written every few seconds by each instance: a request shows within about 5 s.",
  );
export type TokenUsageOutput = z.infer<typeof TokenUsageSchema>;
