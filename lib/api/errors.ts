// The portal API's error envelope `{"error":{"code","message","fields"?,"request_id"}}` and the one map from
// error code to HTTP status. Every error answer of /api is built here.
import type { z } from "zod";

import { hasBrand } from "@/lib/brand";

import type { Permission } from "@/lib/contract/values";
import type { AccountError } from "@/lib/auth/users";
import type { PurchaseCodeRefused } from "@/lib/purchases/errors";
import type { PurchaseCodeSlip } from "@/lib/purchases/slips";
import { AREA_WORDS, capitalised, type Area } from "@/lib/contract/areas";
import { fieldsSummary } from "@/lib/contract/field-messages";
import { redact, redactDeep } from "@/lib/log/redact";
import { isCircuitOpenError, type UpstreamError } from "@/lib/upstream/errors";
import { upstreamFailureWords } from "@/lib/upstream/failure";

export const ERROR_STATUS = {
  invalid_input: 400,
  invalid_json: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  invalid_second_factor: 401,
  second_step_expired: 401,
  token_invalid: 401,
  token_expired: 401,
  token_revoked: 401,
  forbidden: 403,
  insufficient_scope: 403,
  address_not_allowed: 403,
  activation_limit_reached: 403,
  csrf: 403,
  password_login_off: 403,
  second_factor_required: 403,
  step_up_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  email_taken: 409,
  last_admin: 409,
  conflict: 409,
  run_in_progress: 409,
  key_set_in_environment: 409,
  key_encryption_off: 409,
  key_in_use: 409,
  too_many_tokens: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  quota_exceeded: 429,
  upstream_rate_limited: 429,
  internal: 500,
  upstream_auth: 502,
  upstream_unreachable: 502,
  upstream_bad_response: 502,
  upstream_error: 502,
  area_not_configured: 503,
  server_busy: 503,
  upstream_unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const API_ERROR: unique symbol = Symbol.for("gatehouse.ApiError");

export class ApiError extends Error {
  readonly [API_ERROR] = true;
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string>;
  /** A refused purchase code's slip and its mend (lib/purchases/slips.ts). */
  readonly suggestion: PurchaseCodeSlip | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      fields?: Record<string, string>;
      headers?: Record<string, string>;
      suggestion?: PurchaseCodeSlip;
    } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers ?? {};
    this.suggestion = options.suggestion;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** An ApiError of any copy of this module (see lib/brand.ts: never `instanceof`). */
export function isApiError(error: unknown): error is ApiError {
  return hasBrand(error, API_ERROR);
}

export function errorBody(error: ApiError, requestId: string) {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
      ...(error.suggestion ? { suggestion: error.suggestion } : {}),
      request_id: requestId,
    },
  };
}

/**
 * A zod failure as one message per field. `where` says which part of the request was wrong ("query
 * parameter", "field", "path segment") so that the message tells a person what to fix.
 */
export function invalidInput(error: z.ZodError, where: string): ApiError {
  // Field names come from the client: `__proto__` or `constructor` must be keys like any other, not inherited.
  const fields: Record<string, string> = Object.create(null);
  const name = (key: string, message: string) => {
    if (!Object.hasOwn(fields, key)) fields[key] = message;
  };
  const general: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) name(key, `Unknown ${where}.`);
    } else if (issue.path.length === 0) {
      // About the input as a whole (not an object, nothing to update): no field to name.
      general.push(issue.message);
    } else {
      const field = issue.path.map(String).join(".");
      // The accounts' field schemas already name their field ("email must be…").
      name(field, issue.message.startsWith(`${field} `) ? issue.message : `${field} ${issue.message}`);
    }
  }
  const names = Object.keys(fields);
  const message = [
    ...general.map((text) => (text.endsWith(".") ? text : `${text}.`)),
    ...(names.length > 0 ? [fieldsSummary(fields)] : []),
  ].join(" ");
  return new ApiError("invalid_input", message || `Invalid ${where}.`, names.length > 0 ? { fields } : {});
}

/** A refusal of named fields: the message says each field's label and sentence (lib/contract/field-messages.ts). */
export function fieldsRefused(fields: Record<string, string>, suggestion?: PurchaseCodeSlip): ApiError {
  return new ApiError("invalid_input", fieldsSummary(fields), { fields, ...(suggestion ? { suggestion } : {}) });
}

export function unauthenticated(): ApiError {
  return new ApiError("unauthenticated", "Sign in first: this needs a valid session (POST /api/auth/login).");
}

export function forbidden(permission: Permission): ApiError {
  return new ApiError("forbidden", `Your role does not allow this (it needs the permission ${permission}).`);
}

/** A token request to an operation its scopes do not cover: names the scope it needs. */
export function insufficientScope(permission: Permission | "signed_in", sessionOnly: boolean): ApiError {
  if (sessionOnly || permission === "signed_in") {
    return new ApiError(
      "insufficient_scope",
      "API tokens cannot do this: it needs a signed-in session (POST /api/auth/login).",
    );
  }
  return new ApiError("insufficient_scope", `This API token does not have the scope ${permission}, which this needs.`, {
    fields: { scope: permission },
  });
}

export function rateLimited(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError("rate_limited", message, { headers: { "Retry-After": String(retryAfterSeconds) } });
}

/** A token's monthly quota used up: 429 until the month turns (UTC), with Retry-After to then. */
export function quotaExceeded(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError("quota_exceeded", message, { headers: { "Retry-After": String(retryAfterSeconds) } });
}

/** A refusal of the users repository, as the answer a person can act on. */
export function fromAccountError(error: AccountError): ApiError {
  const message = error.message.charAt(0).toUpperCase() + error.message.slice(1);
  const sentence = message.endsWith(".") ? message : `${message}.`;
  switch (error.code) {
    case "email_taken":
      return new ApiError("email_taken", sentence, { fields: { email: sentence } });
    case "last_admin":
      return new ApiError("last_admin", sentence);
    case "user_not_found":
      return new ApiError("not_found", sentence);
    case "sso_managed":
    case "service_account":
      return new ApiError("invalid_input", sentence, { fields: { password: sentence } });
    case "identity_taken":
      return new ApiError("invalid_input", sentence);
  }
}

/**
 * A refusal of the tokens or webhooks store: `invalid` names its field (400), `not_found` is 404, `too_many`
 * (a token owner at his cap) is 409.
 */
export function fromRefusal(error: {
  code: "invalid" | "not_found" | "too_many";
  message: string;
  field: string | null;
}): ApiError {
  const sentence = error.message.charAt(0).toUpperCase() + error.message.slice(1);
  if (error.code === "not_found") return new ApiError("not_found", sentence);
  if (error.code === "too_many") return new ApiError("too_many_tokens", sentence);
  // A refusal of the request as a whole (an endpoint paused when a test is asked for) names no field.
  if (error.field === null) return new ApiError("invalid_input", sentence);
  return fieldsRefused({ [error.field]: error.message });
}

/** A purchase code the normaliser refuses: the reason (which character, where) in fields[field]. */
export function fromPurchaseCodeRefused(error: PurchaseCodeRefused): ApiError {
  return fieldsRefused({ [error.field]: error.reason }, error.suggestion ?? undefined);
}

export function areaNotConfigured(area: Area): ApiError {
  return new ApiError(
    "area_not_configured",
    // The variables to set are the operator's (docs/configuration.md; the Upstream connections page names them).
    `${capitalised(AREA_WORDS[area].api)} is not configured on this Gatehouse. An admin can see how to set it up on the Upstream connections page (/admin/upstream).`,
  );
}

/** The area has a base URL but its key is kept in the portal and none has been set yet. */
export function areaWithoutKey(area: Area): ApiError {
  return new ApiError(
    "area_not_configured",
    `${capitalised(AREA_WORDS[area].api)} has no key yet. An admin can set it on the Upstream connections page (/admin/upstream).`,
  );
}

/** The answer our client gets for an upstream failure: never the upstream's URL, headers or raw body. */
export function fromUpstreamError(error: UpstreamError, notFoundMessage: string): ApiError {
  const upstream = capitalised(AREA_WORDS[error.area].api);
  const words = upstreamFailureWords(error);
  // The upstream's own words are useful to the person, but they are still upstream text: redact before passing on.
  const said = words.said ? `: ${redact(words.said)}` : ".";
  // Its breaker is open: Gatehouse did not even ask. 503 with the time until it tries again.
  if (isCircuitOpenError(error)) {
    return new ApiError("upstream_unavailable", `${upstream} ${words.what}.`, {
      headers: { "Retry-After": String(error.retryAfterSeconds) },
    });
  }
  switch (error.kind) {
    case "not_found":
      return new ApiError("not_found", notFoundMessage);
    case "invalid":
      return new ApiError("invalid_input", `${upstream} ${words.what}${said}`, {
        fields:
          error.fields && Object.keys(error.fields).length > 0
            ? (redactDeep(error.fields) as Record<string, string>)
            : undefined,
      });
    case "auth":
      return new ApiError(
        "upstream_auth",
        `${upstream} ${words.what}. An admin can replace the key: the Upstream connections page (/admin/upstream) says where it is kept.`,
      );
    case "rate_limited":
      return new ApiError("upstream_rate_limited", `${upstream} ${words.what}; try again later.`, {
        headers: error.retryAfter ? { "Retry-After": error.retryAfter } : {},
      });
    case "timeout":
      return new ApiError("upstream_timeout", `${upstream} ${words.what}; try again later.`);
    case "unreachable":
      return new ApiError("upstream_unreachable", `${upstream} ${words.what}; try again later.`);
    case "bad_response":
    case "too_large":
      return new ApiError("upstream_bad_response", `${upstream} ${words.what}.`);
    case "http_status":
      return new ApiError("upstream_error", `${upstream} ${words.what}${said}`);
  }
}
