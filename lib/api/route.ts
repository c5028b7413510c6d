// The one wrapper around every route handler of the portal API: each request passes the same steps, in the order
// PIPELINE lists them (./steps), then the operation's handler, then its audit row and one log line.
//
//   (host check) → bearer → csrf → session → permission → limit → area → parse → handler → audit → events → answer + log line (+ security headers)
//
// A step finds something out (who asks, the upstream client, the validated input) or refuses the request by
// throwing an ApiError; nothing after it runs then, but the audit row, the cookies the steps set and the log line
// still do. Every error becomes the error envelope — UpstreamError into 404/400/429/502/504, anything unexpected
// into a 500 `internal` without detail. A shared rate limiter is one more step.
import "server-only";

import { NextResponse, type NextRequest } from "next/server";
import type { z } from "zod";

import type { ServerContext } from "@/lib/auth/access";
import { admitRequest, withSecurityHeaders } from "@/lib/auth/edge";
import type { AuditEntry } from "@/lib/auth/audit";
import { withoutGuardedFields, type Caller } from "@/lib/auth/permissions";
import type { SessionCookieStore, SessionData, SessionSettings } from "@/lib/auth/session";
import type { User } from "@/lib/auth/users";
import { clientAddress } from "@/lib/auth/request";
import { STATIC_CONTENT_SECURITY_POLICY } from "@/lib/auth/security-headers";
import type { TokenUsageOutcome } from "@/lib/contract/values";
import { runWithRequestContext, type RequestContext } from "@/lib/log";
import { inSpan } from "@/lib/telemetry";
import { recordTokenUse } from "@/lib/tokens/usage";
import { getUpstreams, type ItemsClient, type ReportsClient, type Upstreams } from "@/lib/upstream";

import type { ApiError } from "./errors";
import type { OperationSpec } from "./operations";
import { area } from "./steps/area";
import { auditOperation, writeAudit } from "./steps/audit";
import { emitOperationEvent } from "./steps/events";
import { errorResponse, formFailure, toApiError, toResponse } from "./steps/answer";
import { limit } from "./steps/limit";
import { writeLogLine } from "./steps/log";
import { signAnswer } from "./steps/sign";
import { isHtmlForm, parse, readRawBody } from "./steps/parse";
import { serverContextOf, callerOf, CookieJar, requestIdFor, type ApiRequest, type ApiToken } from "./steps/request";
import { bearer, csrf, permission, session } from "./steps/who";

/** The steps before the handler, in order. Each may refuse the request (it throws an ApiError). */
/** A step in its own span of the request's trace (the token and session checks, which read the store). */
const traced =
  (name: string, step: (request: ApiRequest) => Promise<void>) =>
  (request: ApiRequest): Promise<void> =>
    inSpan(name, {}, () => step(request));

const PIPELINE: ReadonlyArray<(request: ApiRequest) => Promise<void>> = [
  traced("auth.token", bearer), // an API token (Authorization: Bearer gth_…), read from the store: who asks and within which scopes
  csrf, // state-changing operations: X-CSRF, or the page's own Origin for an HTML form (lib/auth/csrf.ts)
  traced("auth.session", session), // who asks: the session cookie, checked against the store and renewed
  permission, // what the operation needs of the user's role (401, 403)
  limit, // the operation's rate limit (429)
  area, // the operation's upstream client (503 when its area is not configured)
  parse, // path, query and body by the operation's schemas (400 with fields)
];

type Output<S> = S extends z.core.$ZodType ? z.output<S> : undefined;
type ClientOf<A> = A extends "reports" ? ReportsClient : A extends "items" ? ItemsClient : undefined;
/** Operations that need a session always have a user; public ones have one only when `optionalSession` found it. */
type UserOf<S extends OperationSpec> = S["permission"] extends "public" ? User | null : User;
type SessionOf<S extends OperationSpec> = S["permission"] extends "public" ? SessionData | null : SessionData;
type CallerOf<S extends OperationSpec> = S["permission"] extends "public" ? Caller | null : Caller;

/** An audit row a handler writes itself (sign-in, sign-out); the request id is filled in. */
export type HandlerAuditEntry = Omit<AuditEntry, "requestId" | "userId" | "userEmail"> &
  Partial<Pick<AuditEntry, "userId" | "userEmail">>;

export interface HandlerContext<S extends OperationSpec> {
  params: Output<S["params"]>;
  query: Output<S["query"]>;
  body: Output<S["body"]>;
  /** The client of the operation's area (already known to be configured). */
  client: ClientOf<S["area"]>;
  /** Both clients and the configuration, for operations that span areas (readiness). */
  upstreams: () => Promise<Upstreams>;
  requestId: string;
  request: NextRequest;
  /** The signed-in user. */
  user: UserOf<S>;
  /** His session, as the cookie sent with this answer holds it (renewed when due); null for a token request. */
  session: SessionOf<S> | null;
  /** The API token the request came with, or null for a session (or anonymous) request. */
  token: ApiToken | null;
  /** Who asks, for a permission check (lib/auth/permissions.ts `can`): the user, within the token's scopes. */
  caller: CallerOf<S>;
  /** The store and the server-side configuration. */
  server: ServerContext;
  /** Session settings for this request (Secure cookie and __Host- name over https). */
  sessionSettings: SessionSettings;
  /** The request's cookies; cookies set here are sent with the answer. */
  cookies: SessionCookieStore;
  /** The client's address when Gatehouse can know it (TRUST_PROXY), else null. */
  clientAddress: string | null;
  /** Writes an audit row now; a failure is logged, never thrown (see writeAudit). */
  audit: (entry: HandlerAuditEntry) => Promise<void>;
  /**
   * A signed body's bytes as they came (operations with `rawBody`; else null): check the signature over them, then
   * `readBody()` validates them with the operation's body schema (400 with fields) and answers the body.
   */
  rawBody: S["rawBody"] extends true ? Buffer : null;
  readBody: () => Output<S["body"]>;
  /** The page's HTML form posted without JavaScript (operations with `form`): where to go after it; else null. */
  form: { next: string } | null;
}

/** What a handler answers: a JSON body with a status, or 204 without one. */
export type Reply =
  | { status: 200 | 201 | 202 | 503; json: unknown; headers?: Record<string, string> }
  | { status: 204; headers?: Record<string, string> }
  /** The answer to an HTML form: the browser loads `location` (a path of this site). */
  | { status: 303; location: string }
  /** To another site: the identity provider's sign-in (a URL the handler built from its discovery, never input). */
  | { status: 302; url: string }
  /** A download (CSV): the body as text or a stream, with its content type and file name. */
  | { status: 200; download: { body: string | ReadableStream<Uint8Array>; contentType: string; fileName: string } };

export const ok = (data: unknown): Reply => ({ status: 200, json: { data } });
export const created = (data: unknown): Reply => ({ status: 201, json: { data } });
export const noContent = (): Reply => ({ status: 204 });
export const accepted = (data: unknown): Reply => ({ status: 202, json: { data } });
export const seeOther = (location: string): Reply => ({ status: 303, location });
export const redirectAway = (url: string): Reply => ({ status: 302, url });

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: NextRequest, context: RouteContext) => Promise<Response>;

export function defineRoute<const S extends OperationSpec>(
  spec: S,
  handler: (context: HandlerContext<S>) => Promise<Reply>,
): RouteHandler {
  return async (request, routeContext) => {
    // The host check and the security headers: the proxy leaves the API to us (proxy.ts).
    const admitted = admitRequest(request);
    if (admitted.refusal) return admitted.refusal;
    const requestId = requestIdFor(request);
    const logContext: RequestContext = { requestId, upstreamCalls: [] };
    const started = performance.now();
    const state: ApiRequest = {
      request,
      spec,
      requestId,
      jar: new CookieJar(request),
      rawParams: {},
      user: null,
      session: null,
      token: null,
      facts: { params: {}, body: {}, data: undefined },
      form: isHtmlForm(request, spec) ? { next: "/" } : null,
    };

    return runWithRequestContext(logContext, async () => {
      let failure: { cause: unknown; answer: ApiError } | null = null;
      let reply: NextResponse;
      try {
        state.rawParams = (await routeContext?.params) ?? {};
        state.facts.params = state.rawParams;
        for (const step of PIPELINE) await step(state);
        const answer = withGuardedFields(state, await handler(await handlerContext<S>(state)));
        if ("json" in answer) state.facts.data = (answer.json as { data?: unknown } | null)?.data;
        reply = toResponse(answer);
      } catch (error) {
        failure = { cause: error, answer: toApiError(error, spec, state.rawParams) };
        reply =
          state.form && spec.form
            ? formFailure(spec.form.page, failure.answer, state.form.next)
            : errorResponse(failure.answer, requestId);
      }
      if (spec.signed) reply = await signAnswer(state, reply);
      await auditOperation(state, reply.status, failure?.answer ?? null);
      await emitOperationEvent(state, failure === null);
      state.jar.applyTo(reply);
      for (const [name, value] of Object.entries(state.extraHeaders ?? {})) reply.headers.set(name, value);
      if (state.token) noteTokenRequest(state, reply.status, failure?.answer ?? null, logContext);
      reply.headers.set("X-Request-Id", requestId);
      // Answers hold per-account data: no shared cache may keep them.
      reply.headers.set("Cache-Control", "no-store");
      withSecurityHeaders(reply, STATIC_CONTENT_SECURITY_POLICY, admitted.https);
      writeLogLine(request, spec, reply.status, started, logContext, failure, state.user);
      return reply;
    });
  };
}

/** Counts a request with a token in its usage (in memory; written every few seconds: lib/tokens/usage.ts). */
function noteTokenRequest(state: ApiRequest, status: number, error: ApiError | null, context: RequestContext): void {
  const upstreamCalls = { reports: 0, items: 0 };
  for (const call of context.upstreamCalls)
    if (call.area === "reports" || call.area === "items") upstreamCalls[call.area] += 1;
  recordTokenUse(state.server!.db, {
    tokenId: state.token!.id,
    operation: state.spec.id,
    outcome: usageOutcome(status, error, state.limitsCounted === true),
    upstreamCalls,
  });
}

/** How a token request ended, as its usage counts it (TOKEN_USAGE_OUTCOMES). */
export function usageOutcome(status: number, error: ApiError | null, limitsCounted: boolean): TokenUsageOutcome {
  if (error && (error.code === "rate_limited" || error.code === "quota_exceeded")) return "limited";
  if (!limitsCounted) return status < 400 ? "ok" : "denied";
  if (status < 400) return "ok";
  if (error?.code.startsWith("upstream_") || status === 502 || status === 503 || status === 504)
    return "upstream_error";
  if (status >= 500) return "error";
  return "refused";
}

/** What the handler gets: everything the steps found out, the server context, and a way to write its own audit rows. */
async function handlerContext<S extends OperationSpec>(state: ApiRequest): Promise<HandlerContext<S>> {
  const { server, settings } = await serverContextOf(state);
  return {
    params: state.params,
    query: state.query,
    body: state.body,
    client: state.client,
    upstreams: getUpstreams,
    requestId: state.requestId,
    request: state.request,
    user: state.user,
    session: state.session,
    token: state.token,
    caller: callerOf(state),
    server,
    sessionSettings: settings,
    cookies: state.jar,
    clientAddress: clientAddress(state.request.headers, server.config.edge),
    audit: (entry: HandlerAuditEntry) =>
      writeAudit(server, {
        userId: state.user?.id ?? null,
        userEmail: state.user?.email ?? null,
        ...entry,
        requestId: state.requestId,
      }),
    form: state.form,
    rawBody: state.rawBody ?? null,
    readBody: () => readRawBody(state),
  } as unknown as HandlerContext<S>;
}

/** The answer without the operation's guarded fields the caller may not see (OperationSpec.guardedFields). */
function withGuardedFields(state: ApiRequest, answer: Reply): Reply {
  const guarded = state.spec.guardedFields;
  const caller = callerOf(state);
  if (!guarded || !caller || !("json" in answer)) return answer;
  const data = (answer.json as { data?: unknown } | null)?.data;
  const visible = (entry: unknown) =>
    typeof entry === "object" && entry !== null ? withoutGuardedFields(caller, guarded, entry) : entry;
  return {
    ...answer,
    json: { ...(answer.json as object), data: Array.isArray(data) ? data.map(visible) : visible(data) },
  };
}
