// Laravel's conventions for area A, whose document leaves envelopes and errors unspecified: validation
// messages and 422 bodies, and resource-collection pagination.
import { z } from "zod";

import { json, type Reply } from "./area";

/** "per_page" -> "per page", as Laravel names attributes in its messages. */
function attribute(field: string): string {
  return field.replaceAll("_", " ");
}

export const messages = {
  required: (field: string) => `The ${attribute(field)} field is required.`,
  requiredIf: (field: string, other: string, value: string) =>
    `The ${attribute(field)} field is required when ${attribute(other)} is ${value}.`,
  in: (field: string) => `The selected ${attribute(field)} is invalid.`,
  url: (field: string) => `The ${attribute(field)} field must be a valid URL.`,
  maxString: (field: string, max: number) =>
    `The ${attribute(field)} field must not be greater than ${max} characters.`,
  integer: (field: string) => `The ${attribute(field)} field must be an integer.`,
  min: (field: string, min: number) => `The ${attribute(field)} field must be at least ${min}.`,
};

/** A field that must be one of `values` (strings, as they arrive in a query or form). */
export function oneOf<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z.enum(values, { error: messages.in(field) });
}

/** A positive integer given as text, e.g. `page`. */
export function positiveInteger(field: string) {
  return z
    .string()
    .regex(/^\d+$/, { error: messages.integer(field) })
    .transform(Number)
    .refine((n) => n >= 1, { error: messages.min(field, 1) });
}

export function optionalString(field: string, max: number) {
  return z.string().max(max, { error: messages.maxString(field, max) });
}

export type ValidationErrors = Record<string, string[]>;

/** 422 `{"message": first error (and N more errors), "errors": {field: [messages]}}`, as Laravel answers. */
export function validationFailed(errors: ValidationErrors): Reply {
  const all = Object.values(errors).flat();
  const rest = all.length - 1;
  const message =
    (all[0] ?? "The given data was invalid.") + (rest > 0 ? ` (and ${rest} more error${rest > 1 ? "s" : ""})` : "");
  return json(422, { message, errors });
}

export function errorsFromZod(error: z.ZodError): ValidationErrors {
  const errors: ValidationErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "input");
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/**
 * Parse `input` with `schema`, or the 422 reply Laravel would give. `crossField` adds rules that compare fields
 * (like required_if); it sees the raw input so that its errors join the others, as Laravel reports every field.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  input: Record<string, string>,
  crossField: (input: Record<string, string>) => ValidationErrors = () => ({}),
): { ok: true; data: z.output<S> } | { ok: false; reply: Reply } {
  const parsed = schema.safeParse(input);
  const errors = parsed.success ? {} : errorsFromZod(parsed.error);
  for (const [field, list] of Object.entries(crossField(input))) (errors[field] ??= []).push(...list);
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, data: parsed.data };
  return { ok: false, reply: validationFailed(errors) };
}

// Laravel's TrimStrings middleware leaves these untouched.
const UNTRIMMED = new Set(["password", "password_confirmation", "current_password"]);

/**
 * Request input as Laravel's middleware hands it to validation: strings trimmed (passwords excepted), empty
 * strings as absent (ConvertEmptyStringsToNull), and the last of repeated parameters winning (as PHP parses).
 */
export function laravelInput(params: URLSearchParams | null): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, raw] of params ?? []) {
    const value = UNTRIMMED.has(key) ? raw : raw.trim();
    if (value === "") delete fields[key];
    else fields[key] = value;
  }
  return fields;
}

export interface Page<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

/**
 * Laravel's resource-collection pagination. Links keep the other query parameters (the paginator's
 * `withQueryString()`), with `page` last, and are absolute URLs that keep the area's path prefix.
 */
export function paginate<T>(
  rows: T[],
  opts: { page: number; perPage: number; path: string; query: URLSearchParams },
): Page<T> {
  const total = rows.length;
  const lastPage = Math.max(1, Math.ceil(total / opts.perPage));
  const offset = (opts.page - 1) * opts.perPage;
  const data = rows.slice(offset, offset + opts.perPage);
  const pageUrl = (page: number) => {
    const params = new URLSearchParams(opts.query);
    params.delete("page");
    params.append("page", String(page));
    return `${opts.path}?${params.toString()}`;
  };
  return {
    data,
    links: {
      first: pageUrl(1),
      last: pageUrl(lastPage),
      prev: opts.page > 1 ? pageUrl(opts.page - 1) : null,
      next: opts.page < lastPage ? pageUrl(opts.page + 1) : null,
    },
    meta: {
      current_page: opts.page,
      from: data.length ? offset + 1 : null,
      last_page: lastPage,
      path: opts.path,
      per_page: opts.perPage,
      to: data.length ? offset + data.length : null,
      total,
    },
  };
}
