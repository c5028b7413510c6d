// The operation's input, validated with its zod schemas (lib/contract): path parameters, query and body, each
// refused with 400 and one message per field. A JSON body is capped and parsed without prototypes; an operation
// with a `form` (sign-in) also takes its page's HTML form, with `next` kept apart as a path of this site.
import "server-only";

import type { NextRequest } from "next/server";
import { z } from "zod";
import en from "zod/v4/locales/en.js";

import { safeNextPath } from "@/lib/auth/safe-next";
import { readCappedBytes, readCappedText } from "@/lib/read-capped";

import { ApiError, fieldsRefused, invalidInput } from "../errors";
import type { OperationSpec } from "../operations";
import type { ApiRequest } from "./request";

// The contract's zod/mini schemas (lib/contract/fields.ts) leave the messages they have none of their own for
// ("Unrecognized key: \"x\"") to a locale, which the full zod's schemas carry: English, set here, where the API
// reads its input, rather than in the contract, which the browser loads too (where no message is shown).
z.config(en());

/** Cap on JSON request bodies: our largest input is a 2048-character URL. */
export const MAX_BODY_BYTES = 64 * 1024;

export async function parse(state: ApiRequest): Promise<void> {
  const { spec, request } = state;
  state.params = parseWith(spec.params, state.rawParams, "path segment");
  state.facts.params = (state.params ?? {}) as Record<string, unknown>;
  state.query = spec.query
    ? parseWith(spec.query, queryObject(request, spec.ignoredQuery), "query parameter")
    : undefined;
  const maxBytes = spec.maxBodyBytes ?? MAX_BODY_BYTES;
  if (spec.rawBody) {
    // A signed body: its bytes for the handler, which checks the signature before reading them (readBody).
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > maxBytes) throw bodyTooLarge(maxBytes);
    state.rawBody = await readCappedBytes(request.body, maxBytes, () => bodyTooLarge(maxBytes));
    return;
  }
  const raw =
    spec.body &&
    (state.form ? await readFormBody(request, maxBytes, state.form) : await readJsonBody(request, maxBytes));
  state.body = spec.body ? parseWith(spec.body, raw, "field") : undefined;
  state.facts.body = (state.body ?? {}) as Record<string, unknown>;
}

/**
 * A signed body (OperationSpec.rawBody), read once its signature is checked: JSON (whatever Content-Type the
 * sender gave), then the operation's body schema; refused as any body is (400 with fields).
 */
export function readRawBody(state: ApiRequest): unknown {
  const text = (state.rawBody ?? Buffer.alloc(0)).toString("utf8");
  if (text.trim() === "") throw new ApiError("invalid_json", "The request body is empty; send a JSON object.");
  state.body = parseWith(state.spec.body, jsonObject(text), "field");
  state.facts.body = (state.body ?? {}) as Record<string, unknown>;
  return state.body;
}

function parseWith(schema: z.core.$ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const result = z.safeParse(schema, value);
  if (!result.success) throw invalidInput(result.error, where);
  return result.data;
}

/**
 * The query string as an object, without the parameters the operation ignores. An empty value counts as absent; a
 * repeated parameter is refused. A parameter
 * named like a property of every object (`constructor`, `toString`) is an ordinary name here, so the schema
 * refuses it as unknown like any other: the object has no prototype, and only own keys count. (A `__proto__`
 * parameter never gets here: Next's router copies the query into a plain object, where that name is lost.)
 */
function queryObject(request: NextRequest, ignored: readonly string[] = []): Record<string, string> {
  const query: Record<string, string> = Object.create(null);
  const repeated: Record<string, string> = Object.create(null);
  const seen = new Set<string>();
  for (const [name, value] of request.nextUrl.searchParams) {
    if (ignored.includes(name)) continue;
    if (seen.has(name)) repeated[name] = `${name} is given more than once; give it once`;
    seen.add(name);
    if (value !== "") query[name] = value;
  }
  if (Object.keys(repeated).length > 0) throw fieldsRefused(repeated);
  return query;
}

/** JSON.parse, with every object of the result made prototype-less: `__proto__` stays an ordinary own key. */
function parseJsonWithoutPrototypes(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.assign(Object.create(null), value)
      : value,
  );
}

async function readJsonBody(request: NextRequest, maxBytes: number): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new ApiError(
      "unsupported_media_type",
      "Send the body as JSON with the header Content-Type: application/json.",
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
  const text = await readCappedText(request.body, maxBytes, () => bodyTooLarge(maxBytes));
  if (text.trim() === "") throw new ApiError("invalid_json", "The request body is empty; send a JSON object.");
  return jsonObject(text);
}

/** `text` as a JSON object without prototypes, or invalid_json. */
function jsonObject(text: string): unknown {
  let body: unknown;
  try {
    body = parseJsonWithoutPrototypes(text);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError("invalid_json", "The request body must be a JSON object.");
  }
  return body;
}

const FORM_CONTENT_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/** The request is the HTML form of an operation that takes one (the sign-in page posted without JavaScript). */
export function isHtmlForm(request: NextRequest, spec: OperationSpec): boolean {
  return spec.form !== undefined && FORM_CONTENT_TYPE.test(request.headers.get("content-type") ?? "");
}

/**
 * An HTML form's fields as an object for the operation's body schema, without `next` (where to go afterwards,
 * kept in `form` once it is known to be a path of this site). A field given twice is refused, as in a query.
 */
async function readFormBody(
  request: NextRequest,
  maxBytes: number,
  form: { next: string },
): Promise<Record<string, string>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
  const fields = new URLSearchParams(await readCappedText(request.body, maxBytes, () => bodyTooLarge(maxBytes)));
  const body: Record<string, string> = Object.create(null) as Record<string, string>;
  const seen = new Set<string>();
  const repeated: Record<string, string> = {};
  for (const [name, value] of fields) {
    if (seen.has(name)) repeated[name] = `${name} is given more than once; give it once`;
    seen.add(name);
    if (name === "next") form.next = safeNextPath(value);
    else body[name] = value;
  }
  if (Object.keys(repeated).length > 0) throw fieldsRefused(repeated);
  return { ...body };
}

function bodyTooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
}
