// One structured, redacted log line per API request: who, what, how it ended, and each upstream call it made;
// and the request in the metrics (by operation and status, with its latency).
import "server-only";

import type { NextRequest } from "next/server";

import type { User } from "@/lib/auth/users";
import { describeError, logEvent, type RequestContext } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { isUpstreamError } from "@/lib/upstream";

import { isApiError, type ApiError } from "../errors";
import type { OperationSpec } from "../operations";

export function writeLogLine(
  request: NextRequest,
  spec: OperationSpec,
  status: number,
  started: number,
  context: RequestContext,
  failure: { cause: unknown; answer: ApiError } | null,
  user: User | null,
): void {
  const seconds = (performance.now() - started) / 1000;
  const { requests, requestSeconds } = metrics();
  requests.inc({ operation: spec.id, status: String(status) });
  requestSeconds.observe({ operation: spec.id }, seconds);
  const fields: Record<string, unknown> = {
    request_id: context.requestId,
    method: request.method,
    path: request.nextUrl.pathname,
    operation: spec.id,
    status,
    duration_ms: Math.round(seconds * 1000),
    ...(user ? { user_id: user.id } : {}),
    upstream: context.upstreamCalls,
  };
  if (failure) {
    fields.error_code = failure.answer.code;
    // What the client was not told: the upstream's side of the story, or the unexpected error itself.
    if (isUpstreamError(failure.cause)) fields.upstream_error = failure.cause.message;
    else if (!isApiError(failure.cause)) fields.error = describeError(failure.cause);
  }
  logEvent(status >= 500 ? "error" : status >= 400 ? "warn" : "info", "request", fields);
}
