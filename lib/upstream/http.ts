// The one HTTP layer between Gatehouse and the upstreams. Every upstream request goes through `sendUpstream`;
// the policies (retries, circuit breaker, cache, single flight: ./policy) are layered around it, and the
// clients describe requests and interpret answers, and never touch the network themselves.
//
// Node's fetch (undici) keeps a keep-alive connection pool per origin. Redirects are not followed (a 3xx from
// an API is an error, and following it could carry the key elsewhere); the timeout covers headers and body; the
// body is read with a byte cap; JSON parsing is guarded.
import "server-only";

import type { Area } from "@/lib/contract/areas";
import { retryAfterMs } from "@/lib/contract/retry-after";
import { recordUpstreamCall } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { readCappedText } from "@/lib/read-capped";
import { traceHeaders } from "@/lib/telemetry";

import { isUpstreamError, UpstreamError } from "./errors";

export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const USER_AGENT = "Gatehouse/1.0";

export interface UpstreamRequest {
  area: Area;
  /** Client operation name, e.g. "reports.list"; it names the call in logs and errors. */
  operation: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: URL;
  /** Every header the upstream gets; nothing from the browser's request is ever added. */
  headers: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes?: number;
}

export type UpstreamBody = { kind: "empty" } | { kind: "json"; value: unknown } | { kind: "not_json" };

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  body: UpstreamBody;
  durationMs: number;
}

/** Sends one request and reads the whole answer. Any HTTP status is returned; transport failures throw UpstreamError. */
export async function sendUpstream(request: UpstreamRequest): Promise<UpstreamResponse> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let status: number | null = null;
  try {
    const response = await fetchWithCap(request, (s) => (status = s));
    recordUpstreamCall({
      area: request.area,
      operation: request.operation,
      status,
      duration_ms: elapsed(),
      outcome: "ok",
    });
    countCall(request, status !== null && status >= 400 ? `http_${status}` : "ok", elapsed());
    return { ...response, durationMs: elapsed() };
  } catch (error) {
    const upstreamError = toUpstreamError(error, request, status);
    recordUpstreamCall({
      area: request.area,
      operation: request.operation,
      status,
      duration_ms: elapsed(),
      outcome: upstreamError.kind,
    });
    countCall(request, upstreamError.kind, elapsed());
    throw upstreamError;
  }
}

function countCall(request: UpstreamRequest, outcome: string, ms: number): void {
  const { upstreamCalls, upstreamSeconds } = metrics();
  upstreamCalls.inc({ area: request.area, operation: request.operation, outcome });
  upstreamSeconds.observe({ area: request.area, operation: request.operation }, ms / 1000);
}

async function fetchWithCap(
  request: UpstreamRequest,
  onStatus: (status: number) => void,
): Promise<Omit<UpstreamResponse, "durationMs">> {
  const maxBytes = request.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const headers = new Headers(request.headers);
  // Name ourselves to the upstream's operators instead of fetch's default "node".
  if (!headers.has("User-Agent")) headers.set("User-Agent", USER_AGENT);
  // The trace goes on to the upstream (W3C traceparent), when traces are on; nothing of the browser's request does.
  for (const [name, value] of Object.entries(traceHeaders())) headers.set(name, value);
  let body: string | undefined;
  if (request.form) {
    body = new URLSearchParams(request.form).toString();
    headers.set("Content-Type", "application/x-www-form-urlencoded");
  }
  // One signal for the whole exchange: undici aborts the body stream too when it fires.
  const signal = AbortSignal.timeout(request.timeoutMs);
  const response = await fetch(request.url, {
    method: request.method,
    headers,
    body,
    redirect: "manual",
    signal,
    cache: "no-store",
  });
  onStatus(response.status);
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new UpstreamError({
      kind: "bad_response",
      area: request.area,
      operation: request.operation,
      status: response.status,
      detail: "answered with a redirect, which Gatehouse does not follow; check the area's base URL",
    });
  }
  const declaredLength = Number(response.headers.get("content-length") ?? "0");
  if (declaredLength > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(request, response.status, maxBytes);
  }
  const text = await readCappedText(response.body, maxBytes, () => tooLarge(request, response.status, maxBytes));
  return { status: response.status, headers: response.headers, body: parseBody(text) };
}

function tooLarge(request: UpstreamRequest, status: number, maxBytes: number): UpstreamError {
  return new UpstreamError({
    kind: "too_large",
    area: request.area,
    operation: request.operation,
    status,
    detail: `answered more than ${maxBytes} bytes, the response size cap`,
  });
}

function parseBody(text: string): UpstreamBody {
  if (text.trim() === "") return { kind: "empty" };
  try {
    return { kind: "json", value: JSON.parse(text) as unknown };
  } catch {
    return { kind: "not_json" };
  }
}

/** Socket-level error codes that mean "could not reach the upstream" (found on fetch's `cause` chain). */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_CLOSED",
]);

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
}

// Translate whatever fetch threw into an UpstreamError built from fixed words: fetch's own messages and causes
// are dropped, never copied, because they may quote the URL (and so area B's api_key) or a header value.
function toUpstreamError(error: unknown, request: UpstreamRequest, status: number | null): UpstreamError {
  if (isUpstreamError(error)) return error;
  const base = { area: request.area, operation: request.operation, status: status ?? undefined };
  if (isTimeout(error)) {
    return new UpstreamError({ ...base, kind: "timeout", detail: `no complete answer within ${request.timeoutMs} ms` });
  }
  const codes = causeCodes(error);
  const known = codes.find((code) => UNREACHABLE_CODES.has(code));
  if (known || error instanceof TypeError) {
    return new UpstreamError({
      ...base,
      kind: "unreachable",
      detail: `could not be reached${known ? ` (${known})` : ""}`,
    });
  }
  return new UpstreamError({ ...base, kind: "unreachable", detail: "failed for an unexpected reason" });
}

/** The upstream's Retry-After, when it is a well-formed one (seconds or an HTTP date), to pass on to our client. */
export function retryAfterOf(headers: Headers): string | undefined {
  const value = headers.get("retry-after")?.trim();
  return retryAfterMs(value) === null ? undefined : value;
}
