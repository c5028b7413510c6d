// Per-request context: the request id and the upstream calls made while serving it, so that the route wrapper
// can write one log line per request with the upstream's status and duration in it.
import { AsyncLocalStorage } from "node:async_hooks";

import { processWide } from "@/lib/process-wide";

export interface UpstreamCallRecord {
  area: string;
  operation: string;
  /** The upstream's HTTP status, or null when no answer came (timeout, refused connection...). */
  status: number | null;
  duration_ms: number;
  /** "ok" or the UpstreamError kind. */
  outcome: string;
}

export interface RequestContext {
  requestId: string;
  upstreamCalls: UpstreamCallRecord[];
}

function storage(): AsyncLocalStorage<RequestContext> {
  return processWide("log.requestContext", () => new AsyncLocalStorage<RequestContext>());
}

export function runWithRequestContext<T>(context: RequestContext, fn: () => Promise<T>): Promise<T> {
  return storage().run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage().getStore();
}

/** Called by the upstream HTTP layer for every call; a no-op outside a request (scripts, start-up probes). */
export function recordUpstreamCall(call: UpstreamCallRecord): void {
  currentRequestContext()?.upstreamCalls.push(call);
}

/** Runs `fn` outside any request's context: work that outlives the request (a bulk job) must not log into it. */
export function runOutsideRequestContext<T>(fn: () => T): T {
  return storage().exit(fn);
}
