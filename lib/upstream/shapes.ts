// What the upstreams may send, and how it becomes Gatehouse's contract objects (lib/contract).
//
// The upstream document shows field names but no envelopes, statuses or value formats. Both areas look like
// PHP/Laravel APIs, so these schemas accept what such an API plausibly returns, and normalise it:
// - numbers that arrive as numeric strings ("12", "19.99") become numbers (PHP often sends them so);
// - booleans as true/false, 1/0, "1"/"0", "true"/"false";
// - timestamps as ISO 8601 (any offset, fractional seconds), Laravel's "YYYY-MM-DD HH:MM:SS" (read as UTC) or
//   Unix seconds become ISO 8601 UTC ("2025-01-31T12:00:00.000Z");
// - an empty PHP array `[]` where an object (social_links) is expected becomes `{}`;
// - unknown extra fields are dropped (a report's password, created_at... never pass through).
// Accepted envelopes are named and listed next to each parser below; anything else is a bad_response (502).
import { z } from "zod";

import { REPORT_RESULTS } from "@/lib/contract/values";
import { type Account, type Item } from "@/lib/contract/items";
import { type Page } from "@/lib/contract/common";
import { type Project } from "@/lib/contract/projects";
import { type Purchase } from "@/lib/contract/purchases";
import { type Report } from "@/lib/contract/reports";

// ---------------------------------------------------------------------------------------------------------
// Lenient scalars

const wholeNumber = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+$/)
      .transform(Number),
  ])
  .pipe(z.number().int());
const positiveId = wholeNumber.pipe(z.number().positive());
const decimal = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .pipe(z.number());
const flag = z.union([
  z.boolean(),
  z.literal(0).transform(() => false),
  z.literal(1).transform(() => true),
  z.enum(["0", "false"]).transform(() => false),
  z.enum(["1", "true"]).transform(() => true),
]);

const LARAVEL_DATETIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(\.\d+)?)$/;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Normalises an upstream timestamp to ISO 8601 UTC, or returns null when it is not one. */
export function normaliseTimestamp(value: string | number): string | null {
  let date: Date;
  if (typeof value === "number") {
    date = new Date(value * 1000); // Unix seconds
  } else if (ISO_WITH_ZONE.test(value)) {
    // Date.parse accepts at most millisecond precision portably: cut Laravel's microseconds.
    date = new Date(value.replace(/(\.\d{3})\d+/, "$1"));
  } else {
    const laravel = LARAVEL_DATETIME.exec(value);
    if (laravel) date = new Date(`${laravel[1]}T${laravel[2]?.replace(/(\.\d{3})\d+/, "$1")}Z`);
    else if (/^\d{4}-\d{2}-\d{2}$/.test(value)) date = new Date(`${value}T00:00:00Z`);
    else return null;
  }
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const timestamp = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const iso = normaliseTimestamp(value);
  if (iso === null) {
    ctx.addIssue({ code: "custom", message: "not a recognised timestamp" });
    return z.NEVER;
  }
  return iso;
});
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
const stringList = z
  .union([z.array(z.string()), z.string().transform((s) => (s.trim() === "" ? [] : s.split(",").map((t) => t.trim())))])
  .nullish()
  .transform((v) => v ?? []);
const nullToUndefined = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

// ---------------------------------------------------------------------------------------------------------
// Area A objects

export const UpstreamReportSchema = z
  .object({
    id: positiveId,
    url: z.string(),
    project: optionalText,
    result: z
      .string()
      .transform((s) => s.toLowerCase())
      .pipe(z.enum(REPORT_RESULTS)),
    generated_at: timestamp.nullish().transform((v) => v ?? null),
    privacy: wholeNumber.pipe(z.union([z.literal(0), z.literal(1), z.literal(2)])),
  })
  .transform((r): Report => ({ ...r }));

export const UpstreamProjectSchema = z
  .object({ project: z.string(), created_at: timestamp.nullish().transform((v) => v ?? null) })
  .transform((p): Project => ({ ...p }));

// ---------------------------------------------------------------------------------------------------------
// Area A envelopes

/**
 * Accepted list shapes, tried in this order:
 * 1. "resource page" — Laravel API resource pagination: `{ data: [...], links: {...}, meta: { current_page,
 *    last_page, per_page, total, ... } }`.
 * 2. "plain paginator" — Laravel's LengthAwarePaginator as JSON: `{ current_page, data: [...], last_page,
 *    per_page, total, first_page_url, ... }`.
 * 3. "collection" — an unpaginated resource collection `{ data: [...] }`: one page holding everything.
 * 4. "bare array" — `[...]`: the same, without an envelope.
 */

const paginationNumbers = {
  current_page: positiveId,
  last_page: wholeNumber.pipe(z.number().nonnegative()),
  per_page: positiveId,
  total: wholeNumber.pipe(z.number().nonnegative()),
};

function listShapes<T>(item: z.ZodType<T>) {
  return {
    "resource page": z.object({ data: z.array(item), meta: z.object(paginationNumbers) }),
    "plain paginator": z.object({ data: z.array(item), ...paginationNumbers }),
    collection: z.object({ data: z.array(item) }),
    "bare array": z.array(item),
  };
}

export type ParseResult<T> = { ok: true; value: T; shape: string } | { ok: false; problem: string };

/** Describes a zod failure by paths and codes only: never by the values, which are upstream data. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.code}`)
    .join("; ");
}

function pageMeta(page: number, perPage: number, total: number, lastPage: number) {
  // Laravel reports last_page 1 for an empty list; make sure ours is never 0 whatever the upstream says.
  return { page, per_page: perPage, total, last_page: Math.max(1, lastPage) };
}

/** Parses a list answer of area A into `{ data, meta }`, whichever accepted shape it came in. */
export function parseList<T>(
  json: unknown,
  item: z.ZodType<T>,
  requestedPerPage: number | undefined,
): ParseResult<Page<T>> {
  const shapes = listShapes(item);
  const resourcePage = shapes["resource page"].safeParse(json);
  if (resourcePage.success) {
    const { data, meta } = resourcePage.data;
    return {
      ok: true,
      shape: "resource page",
      value: { data, meta: pageMeta(meta.current_page, meta.per_page, meta.total, meta.last_page) },
    };
  }
  const plain = shapes["plain paginator"].safeParse(json);
  if (plain.success) {
    const p = plain.data;
    return {
      ok: true,
      shape: "plain paginator",
      value: { data: p.data, meta: pageMeta(p.current_page, p.per_page, p.total, p.last_page) },
    };
  }
  const collection = shapes.collection.safeParse(json);
  const bareArray = shapes["bare array"].safeParse(json);
  const everything = collection.success ? collection.data.data : bareArray.success ? bareArray.data : null;
  if (everything) {
    return {
      ok: true,
      shape: collection.success ? "collection" : "bare array",
      value: {
        data: everything,
        meta: pageMeta(1, requestedPerPage ?? Math.max(1, everything.length), everything.length, 1),
      },
    };
  }
  // Explain the failure against the shape the answer resembles most.
  const closest = Array.isArray(json)
    ? bareArray
    : !isRecord(json)
      ? null
      : "meta" in json
        ? resourcePage
        : "current_page" in json
          ? plain
          : "data" in json
            ? collection
            : null;
  return {
    ok: false,
    problem: closest && !closest.success ? describeIssues(closest.error) : "not a list in any accepted shape",
  };
}

/**
 * Accepted single-object shapes: "resource" `{ data: {...} }` (Laravel API resource) or "bare object" `{...}`.
 */
export function parseSingle<T>(json: unknown, item: z.ZodType<T>): ParseResult<T> {
  if (isRecord(json) && isRecord(json.data)) {
    const wrapped = item.safeParse(json.data);
    return wrapped.success
      ? { ok: true, shape: "resource", value: wrapped.data }
      : { ok: false, problem: describeIssues(wrapped.error) };
  }
  const bare = item.safeParse(json);
  return bare.success
    ? { ok: true, shape: "bare object", value: bare.data }
    : { ok: false, problem: describeIssues(bare.error) };
}

/** Laravel's validation error body: `{ message, errors: { field: ["..."] } }` → one message per field. */
export function parseValidationErrors(json: unknown): { message?: string; fields: Record<string, string> } {
  const parsed = z
    .object({
      message: z.string().optional(),
      errors: z.record(z.string(), z.union([z.array(z.string()), z.string()])).optional(),
    })
    .safeParse(json);
  if (!parsed.success) return { fields: {} };
  const fields: Record<string, string> = {};
  for (const [field, messages] of Object.entries(parsed.data.errors ?? {})) {
    fields[field] = Array.isArray(messages) ? messages.join(" ") : messages;
  }
  return { message: parsed.data.message, fields };
}

/** The `message` of a Laravel error body (`{"message":"Unauthenticated."}`), if any. */
export function laravelMessage(json: unknown): string | undefined {
  return isRecord(json) && typeof json.message === "string" ? json.message : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Area B objects

export const UpstreamAccountSchema = z
  .object({
    name: z.object({ firstname: z.string(), lastname: z.string(), full_name: z.string() }),
    username: z.string(),
    email: z.string(),
    balance: decimal,
    currency: z.string(),
    profile: z.object({
      heading: optionalText,
      description: optionalText,
      contact: z
        .object({ email: optionalText })
        .nullish()
        .transform((c) => ({ email: c?.email ?? null })),
      // PHP encodes an empty associative array as [], so an empty list means "no links".
      social_links: z
        .union([z.record(z.string(), z.string()), z.array(z.never()).transform(() => ({}))])
        .nullish()
        .transform((v): Record<string, string> => v ?? {}),
      media: z
        .object({ avatar: optionalText, cover: optionalText })
        .nullish()
        .transform((m) => ({ avatar: m?.avatar ?? null, cover: m?.cover ?? null })),
    }),
    registered_at: timestamp,
  })
  .transform((a): Account => a);

export const UpstreamItemSchema = z
  .object({
    id: positiveId,
    name: z.string(),
    description: optionalText,
    category: z.string(),
    sub_category: optionalText,
    options: stringList,
    version: z.string(),
    demo_link: optionalText,
    tags: stringList,
    media: z.object({
      thumbnail: optionalText,
      preview_image: nullToUndefined,
      preview_video: nullToUndefined,
      preview_audio: nullToUndefined,
      screenshots: stringList,
    }),
    price: z.object({ regular: decimal, extended: decimal }),
    currency: z.string(),
    published_at: timestamp,
  })
  .transform(({ media, ...item }): Item => ({ ...item, media: withoutUndefined(media) }));

export const UpstreamPurchaseSchema = z
  .object({
    purchase_code: z.string(),
    license_type: z.string(),
    price: decimal,
    currency: z.string(),
    item: z.object({
      id: positiveId,
      name: z.string(),
      url: optionalText,
      media: z
        .object({ preview_image: nullToUndefined })
        .nullish()
        .transform((m) => withoutUndefined({ preview_image: m?.preview_image })),
    }),
    supported_until: timestamp.nullish().transform((v) => v ?? undefined),
    downloaded: flag,
    date: timestamp,
  })
  .transform((p): Purchase => withoutUndefined(p));

// ---------------------------------------------------------------------------------------------------------
// Area B envelopes: success is `{ status: "success", <field>: ... }`; an error is `{ status: "error", msg }`
// whatever the HTTP status.

export const ItemsErrorEnvelopeSchema = z.object({ status: z.literal("error"), msg: z.string() });

export const AccountEnvelopeSchema = z.object({ status: z.literal("success"), data: UpstreamAccountSchema });
export const ItemListEnvelopeSchema = z.object({ status: z.literal("success"), items: z.array(UpstreamItemSchema) });
export const ItemEnvelopeSchema = z.object({ status: z.literal("success"), item: UpstreamItemSchema });
export const PurchaseEnvelopeSchema = z.object({
  status: z.literal("success"),
  data: z.object({ purchase: UpstreamPurchaseSchema }),
});

export function parseWith<T>(schema: z.ZodType<T>, json: unknown, shape: string): ParseResult<T> {
  const result = schema.safeParse(json);
  return result.success
    ? { ok: true, shape, value: result.data }
    : { ok: false, problem: describeIssues(result.error) };
}

// ---------------------------------------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Drops undefined fields, so that "omitted" in the document stays omitted in our JSON. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
