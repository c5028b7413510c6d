// The one error type of the upstream layer. Its message names the area, the operation and what went wrong —
// never a URL with its query, a header value or a key — and it carries no `cause`, so nothing from the network
// stack (which may quote a URL or header) can ride along into a log or a response.
import { hasBrand } from "@/lib/brand";
import type { Area } from "@/lib/contract/areas";

export type UpstreamErrorKind =
  /** No answer within UPSTREAM_TIMEOUT_MS (headers and body included). */
  | "timeout"
  /** Connection refused or reset, DNS failure: the upstream could not be reached. */
  | "unreachable"
  /** An answer Gatehouse cannot use: malformed JSON, an unknown shape, a redirect. */
  | "bad_response"
  /** The answer exceeded the response size cap. */
  | "too_large"
  /** The upstream rejected Gatehouse's key (401/403, or area B's "Invalid request"). */
  | "auth"
  /** The upstream's rate limit (429). */
  | "rate_limited"
  /** The upstream says the resource does not exist (404, "Item Not Found"). */
  | "not_found"
  /** The upstream refused the input (422), with its field messages. */
  | "invalid"
  /** Any other error status. */
  | "http_status";

export interface UpstreamErrorDetails {
  kind: UpstreamErrorKind;
  area: Area;
  /** The client operation, e.g. "reports.show". */
  operation: string;
  /** The upstream's HTTP status, when it answered. */
  status?: number;
  /** What went wrong, in words safe to log (no URL, no header value, no key). */
  detail: string;
  /** rate_limited: the upstream's Retry-After value, passed on to our client. */
  retryAfter?: string;
  /** invalid: the upstream's field messages (Laravel's `errors`). */
  fields?: Record<string, string>;
  /** The upstream's own error message, when it gave one (Laravel's `message`, area B's `msg`). */
  upstreamMessage?: string;
}

/** The same error with `redactText` applied to the upstream's own words (its message and field messages). */
export function withUpstreamWords(error: UpstreamError, redactText: (text: string) => string): UpstreamError {
  return new UpstreamError({
    kind: error.kind,
    area: error.area,
    operation: error.operation,
    status: error.status,
    detail: error.detail,
    retryAfter: error.retryAfter,
    fields:
      error.fields && Object.fromEntries(Object.entries(error.fields).map(([name, text]) => [name, redactText(text)])),
    upstreamMessage: error.upstreamMessage === undefined ? undefined : redactText(error.upstreamMessage),
  });
}

const UPSTREAM_ERROR: unique symbol = Symbol.for("gatehouse.UpstreamError");
const CIRCUIT_OPEN_ERROR: unique symbol = Symbol.for("gatehouse.CircuitOpenError");

export class UpstreamError extends Error {
  readonly [UPSTREAM_ERROR] = true;
  readonly kind: UpstreamErrorKind;
  readonly area: Area;
  readonly operation: string;
  /** What went wrong, in Gatehouse's words (the message without the operation and status). */
  readonly detail: string;
  readonly status: number | undefined;
  readonly retryAfter: string | undefined;
  readonly fields: Record<string, string> | undefined;
  readonly upstreamMessage: string | undefined;

  constructor(details: UpstreamErrorDetails) {
    const status = details.status === undefined ? "" : ` (HTTP ${details.status})`;
    super(`${details.operation}: ${details.detail}${status}`);
    this.name = "UpstreamError";
    this.kind = details.kind;
    this.area = details.area;
    this.operation = details.operation;
    this.detail = details.detail;
    this.status = details.status;
    this.retryAfter = details.retryAfter;
    this.fields = details.fields;
    this.upstreamMessage = details.upstreamMessage;
  }
}

/**
 * The area's circuit breaker is open: Gatehouse did not call the upstream at all, because its last calls failed.
 * Its kind is "unreachable" (that is what readiness and the logs should call it); the gateway tells it apart by
 * brand (isCircuitOpenError) to answer 503 `upstream_unavailable` with Retry-After instead of 502.
 */
export class CircuitOpenError extends UpstreamError {
  readonly [CIRCUIT_OPEN_ERROR] = true;
  /** Whole seconds until the breaker lets a trial request through (at least 1). */
  readonly retryAfterSeconds: number;

  constructor(details: { area: Area; operation: string; retryAfterSeconds: number }) {
    const seconds = Math.max(1, Math.ceil(details.retryAfterSeconds));
    super({
      kind: "unreachable",
      area: details.area,
      operation: details.operation,
      detail: `not sent: the upstream is not answering (circuit open); Gatehouse tries it again in ${seconds} s`,
      retryAfter: String(seconds),
    });
    this.name = "CircuitOpenError";
    this.retryAfterSeconds = seconds;
  }
}

/** An UpstreamError of any copy of this module (see lib/brand.ts: never `instanceof`). */
export function isUpstreamError(error: unknown): error is UpstreamError {
  return hasBrand(error, UPSTREAM_ERROR);
}

/** A CircuitOpenError of any copy of this module. */
export function isCircuitOpenError(error: unknown): error is CircuitOpenError {
  return hasBrand(error, CIRCUIT_OPEN_ERROR);
}
