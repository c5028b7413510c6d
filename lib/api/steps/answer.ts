// The answer: a handler's reply as a response, or an error as the error envelope (or, for an HTML form, a 303 back
// to its page); every JSON body redacted of the registered keys, whatever the upstream echoed.
import "server-only";

import { NextResponse } from "next/server";
import type { z } from "zod";

import { isAccountError } from "@/lib/auth/users";
import { retryAfterSeconds } from "@/lib/contract/retry-after";
import { redactSecrets, secretsGeneration } from "@/lib/log";
import { isPurchaseCodeRefused } from "@/lib/purchases/errors";
import { isTokenError } from "@/lib/tokens/store";
import { isNotificationError } from "@/lib/notifications/channels";
import { isWebhookError } from "@/lib/webhooks/endpoints";
import { isUpstreamError } from "@/lib/upstream";

import {
  ApiError,
  errorBody,
  fromAccountError,
  fromRefusal,
  fromPurchaseCodeRefused,
  fromUpstreamError,
  invalidInput,
  isApiError,
} from "../errors";
import type { OperationSpec } from "../operations";
import type { Reply } from "../route";

/**
 * A failed HTML form goes back to its page, which says what went wrong from the error code (and, for a rate
 * limit, the wait); nothing the person typed travels in the URL, the password least of all.
 */
export function formFailure(page: string, error: ApiError, next: string): NextResponse {
  const query = new URLSearchParams({ error: error.code });
  const wait = retryAfterSeconds(error.headers["Retry-After"]);
  if (wait !== null) query.set("retry", String(wait));
  if (next !== "/") query.set("next", next);
  return seeOtherResponse(`${page}?${query}`);
}

/** 303 to a path of this site, percent-encoded so that any character is a valid Location header. */
function seeOtherResponse(location: string): NextResponse {
  const url = new URL(location, "http://portal.invalid");
  return new NextResponse(null, { status: 303, headers: { Location: `${url.pathname}${url.search}${url.hash}` } });
}

export function toResponse(reply: Reply): NextResponse {
  if (reply.status === 204) return new NextResponse(null, { status: 204, headers: reply.headers });
  if (reply.status === 303) return seeOtherResponse(reply.location);
  if (reply.status === 302) return new NextResponse(null, { status: 302, headers: { Location: reply.url } });
  if ("download" in reply) {
    const { body, contentType, fileName } = reply.download;
    return new NextResponse(body, {
      status: 200,
      headers: {
        "Content-Type": contentType,
        // The name is ours (an id and a date), never user text: no quoting issue.
        "Content-Disposition": `attachment; filename="${fileName}"`,
        "X-Content-Type-Options": "nosniff",
      },
    });
  }
  return jsonResponse(reply.json, reply.status, reply.headers);
}

export function errorResponse(error: ApiError, requestId: string): NextResponse {
  return jsonResponse(errorBody(error, requestId), error.status, error.headers);
}

/**
 * A JSON answer with every registered key removed, in whatever encoding an upstream may have echoed it (an
 * account field, an error message): Gatehouse's keys never reach a client, even through the upstream's own text.
 */
function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): NextResponse {
  return new NextResponse(bodyText(body), {
    status,
    headers: { ...headers, "Content-Type": "application/json" },
  });
}

/**
 * The text of each body object answered, while no key was registered since: a cached upstream answer is the same
 * object on every hit (lib/upstream/policy/cache.ts keeps it, and nothing changes a cached value), so a cached
 * list is serialised and redacted once, not on every request.
 */
const bodyTexts = new WeakMap<object, { generation: number; text: string }>();

function bodyText(body: unknown): string {
  if (typeof body !== "object" || body === null) return redactSecrets(JSON.stringify(body));
  const generation = secretsGeneration();
  const known = bodyTexts.get(body);
  if (known?.generation === generation) return known.text;
  const text = redactSecrets(JSON.stringify(body));
  bodyTexts.set(body, { generation, text });
  return text;
}

export function toApiError(
  error: unknown,
  spec: OperationSpec,
  rawParams: Record<string, string | string[] | undefined>,
): ApiError {
  if (isApiError(error)) return error;
  if (isAccountError(error)) return fromAccountError(error);
  if (isPurchaseCodeRefused(error)) return fromPurchaseCodeRefused(error);
  if (isTokenError(error) || isWebhookError(error) || isNotificationError(error)) return fromRefusal(error);
  // The repositories validate again with the same schemas; a refusal there is still the client's input.
  if (isZodError(error)) return invalidInput(error, "field");
  if (isUpstreamError(error)) {
    const notFound = (spec.notFound ?? "Not found.").replace(/\{(\w+)\}/g, (_, name: string) =>
      String(rawParams[name] ?? ""),
    );
    return fromUpstreamError(error, notFound);
  }
  return new ApiError(
    "internal",
    "Something went wrong inside Gatehouse. The request id identifies it in the server log.",
  );
}

/**
 * A zod validation failure (zod 4 names its errors "ZodError"). By name and shape, not `instanceof`, like every
 * error test here (lib/brand.ts) — and not `instanceof Error` either: `.parse()` throws an Error subclass, but a
 * `new z.ZodError(issues)` (the accounts store builds one for a password the policy refuses) is a plain object.
 */
function isZodError(error: unknown): error is z.ZodError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { name?: unknown }).name === "ZodError" &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}
