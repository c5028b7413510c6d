// The one wrapper around every route handler of the portal API. In order, it:
// 1. gives the request an id (X-Request-Id on every answer and in the log line);
// 2. authorizes (`authorize`): the CSRF rule for state-changing operations, then the session (401
//    unauthenticated), then the operation's permission for the user's role (403 forbidden), then any rate limit;
// 3. answers 503 when the operation's upstream area is not configured;
// 4. validates path parameters, query and JSON body with the operation's zod schemas (400 with `fields`); an
//    operation with a `form` (sign-in) also takes its page's HTML form, posted without JavaScript, and answers it
//    with a 303 redirect instead of JSON;
// 5. runs the handler, which calls one client function (or the accounts store) and shapes the answer;
// 6. turns every error into the error envelope — UpstreamError into 404/400/429/502/504, anything unexpected
//    into a 500 `internal` without detail — writes the operation's audit row, and one structured, redacted log
//    line. Session cookies the steps set (renewal, sign-in, sign-out) ride on the answer, error or not.
import "server-only";

import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";

import { getAccounts, sessionNeedsRenewal, sessionSettingsFor, type Accounts } from "@/lib/auth/access";
import { purchaseCodeTarget, recordAudit, type AuditEntry, type AuditTarget } from "@/lib/auth/audit";
import { csrfRefusal } from "@/lib/auth/csrf";
import { can } from "@/lib/auth/permissions";
import { checkPurchaseRateLimit } from "@/lib/auth/rate-limit";
import { clientAddress } from "@/lib/auth/request";
import {
  authenticateSession,
  clearSession,
  touchSession,
  writeSession,
  type SessionCookieOptions,
  type SessionCookieStore,
  type SessionData,
  type SessionSettings,
} from "@/lib/auth/session";
import { isAccountError, type User } from "@/lib/auth/users";
import { describeError, logEvent, redactSecrets, runWithRequestContext, type RequestContext } from "@/lib/log";
import { getUpstreams, isUpstreamError, type ItemsClient, type ReportsClient, type Upstreams } from "@/lib/upstream";
import { safeNextPath } from "@/lib/auth/safe-next";
import { retryAfterSeconds } from "@/lib/contract/retry-after";
import { isPurchaseCodeRefused } from "@/lib/purchases/errors";
import { readCappedText } from "@/lib/read-capped";

import {
  ApiError,
  areaNotConfigured,
  errorBody,
  forbidden,
  fromAccountError,
  fromPurchaseCodeRefused,
  fromUpstreamError,
  invalidInput,
  isApiError,
  rateLimited,
  unauthenticated,
} from "./errors";
import type { AuditFacts, AuditTargetSpec, OperationSpec } from "./operations";

/** Cap on JSON request bodies: our largest input is a 2048-character URL. */
export const MAX_BODY_BYTES = 64 * 1024;

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type ClientOf<A> = A extends "reports" ? ReportsClient : A extends "items" ? ItemsClient : undefined;
/** Operations that need a session always have a user; public ones have one only when `optionalSession` found it. */
type UserOf<S extends OperationSpec> = S["permission"] extends "public" ? User | null : User;
type SessionOf<S extends OperationSpec> = S["permission"] extends "public" ? SessionData | null : SessionData;

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
  /** His session, as the cookie sent with this answer holds it (renewed when due). */
  session: SessionOf<S>;
  /** The store and the accounts configuration. */
  accounts: Accounts;
  /** Session settings for this request (Secure cookie and __Host- name over https). */
  sessionSettings: SessionSettings;
  /** The request's cookies; cookies set here are sent with the answer. */
  cookies: SessionCookieStore;
  /** The client's address when Gatehouse can know it (TRUST_PROXY), else null. */
  clientAddress: string | null;
  /** Writes an audit row now; a failure is logged, never thrown (see writeAudit). */
  audit: (entry: HandlerAuditEntry) => Promise<void>;
  /** The page's HTML form posted without JavaScript (operations with `form`): where to go after it; else null. */
  form: { next: string } | null;
}

/** What a handler answers: a JSON body with a status, or 204 without one. */
export type Reply =
  | { status: 200 | 201 | 202 | 503; json: unknown; headers?: Record<string, string> }
  | { status: 204; headers?: Record<string, string> }
  /** The answer to an HTML form: the browser loads `location` (a path of this site). */
  | { status: 303; location: string }
  /** A download (CSV): the body as text or a stream, with its content type and file name. */
  | { status: 200; download: { body: string | ReadableStream<Uint8Array>; contentType: string; fileName: string } };

export const ok = (data: unknown): Reply => ({ status: 200, json: { data } });
export const created = (data: unknown): Reply => ({ status: 201, json: { data } });
export const noContent = (): Reply => ({ status: 204 });
export const accepted = (data: unknown): Reply => ({ status: 202, json: { data } });
export const seeOther = (location: string): Reply => ({ status: 303, location });

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: NextRequest, context: RouteContext) => Promise<Response>;

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * A well-formed incoming X-Request-Id (from a proxy in front of Gatehouse) is kept so that logs line up;
 * anything else is replaced. The pattern keeps log lines and headers safe from injected text.
 */
function requestIdFor(request: NextRequest): string {
  const incoming = request.headers.get("x-request-id");
  return incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
}

/** The request's cookies, with writes kept until the answer exists (it may be an error built later). */
class CookieJar implements SessionCookieStore {
  private readonly writes: Array<{ name: string; value: string; options: SessionCookieOptions }> = [];

  constructor(private readonly request: NextRequest) {}

  get(name: string): { value: string } | undefined {
    return this.request.cookies.get(name);
  }

  set(name: string, value: string, options: SessionCookieOptions): void {
    this.writes.push({ name, value, options });
  }

  applyTo(response: NextResponse): void {
    for (const { name, value, options } of this.writes) response.cookies.set(name, value, options);
  }
}

/** What one request has established so far: who asks, and what the audit row needs. */
interface RequestState {
  requestId: string;
  jar: CookieJar;
  accounts?: Accounts;
  settings?: SessionSettings;
  user: User | null;
  session: SessionData | null;
  facts: AuditFacts;
  /** Set when the request is the operation's HTML form (see OperationSpec.form). */
  form: { next: string } | null;
}

async function accountsFor(request: NextRequest, state: RequestState): Promise<{ accounts: Accounts; settings: SessionSettings }> {
  state.accounts ??= await getAccounts();
  state.settings ??= sessionSettingsFor(state.accounts.config, request.headers);
  return { accounts: state.accounts, settings: state.settings };
}

/**
 * The one place the API enforces access. State-changing operations first pass the CSRF rule (lib/auth/csrf.ts),
 * before anything else; then the session is checked against the store (its user's session version, disabled
 * flag, and both expiries) and renewed at most once a minute; then the role's permission; then rate limits.
 */
async function authorize(request: NextRequest, spec: OperationSpec, state: RequestState): Promise<void> {
  const stateChanging = spec.method !== "GET";
  const needsSession = spec.permission !== "public";
  if (!stateChanging && !needsSession && !spec.optionalSession) return;

  const { accounts, settings } = await accountsFor(request, state);
  if (stateChanging) {
    const refusal = csrfRefusal(request.headers, accounts.config.edge, { htmlForm: state.form !== null });
    if (refusal) throw new ApiError("csrf", refusal);
  }
  if (!needsSession && !spec.optionalSession) return;

  const result = await authenticateSession(accounts.db, state.jar, settings);
  if (result.ok) {
    state.user = result.user;
    state.session = result.session;
    if (sessionNeedsRenewal(result.session)) {
      state.session = touchSession(result.session);
      await writeSession(state.jar, state.session, settings);
    }
  } else if (result.reason !== "missing") {
    // An expired or ended session: tell the browser to drop the cookie.
    clearSession(state.jar, settings);
  }
  const { permission } = spec;
  if (permission === "public") return;
  if (!state.user) throw unauthenticated();
  if (permission !== "signed_in" && !can(state.user.role, permission)) throw forbidden(permission);

  if (spec.rateLimit === "purchase") {
    const decision = checkPurchaseRateLimit(accounts.config.purchaseRateLimits, {
      userId: state.user.id,
      address: clientAddress(request.headers, accounts.config.edge),
    });
    if (!decision.allowed) {
      const which =
        decision.limitedBy === "user"
          ? `${accounts.config.purchaseRateLimits.perUser} purchase checks a minute per user`
          : `${accounts.config.purchaseRateLimits.perIp} purchase checks a minute per address`;
      throw rateLimited(`Too many purchase checks: the limit is ${which}. Try again in ${decision.retryAfterSeconds} s.`, decision.retryAfterSeconds);
    }
  }
}

export function defineRoute<const S extends OperationSpec>(
  spec: S,
  handler: (context: HandlerContext<S>) => Promise<Reply>,
): RouteHandler {
  return async (request, routeContext) => {
    const requestId = requestIdFor(request);
    const logContext: RequestContext = { requestId, upstreamCalls: [] };
    const started = performance.now();
    let rawParams: Record<string, string | string[] | undefined> = {};
    const state: RequestState = {
      requestId,
      jar: new CookieJar(request),
      user: null,
      session: null,
      facts: { params: {}, body: {}, data: undefined },
      form: isHtmlForm(request, spec) ? { next: "/" } : null,
    };

    return runWithRequestContext(logContext, async () => {
      let failure: { cause: unknown; answer: ApiError } | null = null;
      let reply: NextResponse;
      try {
        rawParams = (await routeContext?.params) ?? {};
        state.facts.params = rawParams;
        const answer = await handle(spec, handler, request, rawParams, state);
        if ("json" in answer) state.facts.data = (answer.json as { data?: unknown } | null)?.data;
        reply = toResponse(answer);
      } catch (error) {
        failure = { cause: error, answer: toApiError(error, spec, rawParams) };
        reply = state.form && spec.form ? formFailure(spec.form.page, failure.answer, state.form.next) : errorResponse(failure.answer, requestId);
      }
      await auditOperation(spec, state, reply.status, failure?.answer ?? null);
      state.jar.applyTo(reply);
      reply.headers.set("X-Request-Id", requestId);
      // Answers hold per-account data: no shared cache may keep them.
      reply.headers.set("Cache-Control", "no-store");
      writeLogLine(request, spec, reply.status, started, logContext, failure, state.user);
      return reply;
    });
  };
}

async function handle<S extends OperationSpec>(
  spec: S,
  handler: (context: HandlerContext<S>) => Promise<Reply>,
  request: NextRequest,
  rawParams: Record<string, string | string[] | undefined>,
  state: RequestState,
): Promise<Reply> {
  await authorize(request, spec, state);

  let client: ReportsClient | ItemsClient | undefined;
  if (spec.area) {
    const areaClient = (await getUpstreams())[spec.area];
    if (!areaClient) throw areaNotConfigured(spec.area);
    client = areaClient;
  }

  const params = parseWith(spec.params, rawParams, "path segment");
  state.facts.params = (params ?? {}) as Record<string, unknown>;
  const query = spec.query ? parseWith(spec.query, queryObject(request), "query parameter") : undefined;
  const maxBytes = spec.maxBodyBytes ?? MAX_BODY_BYTES;
  const raw = spec.body && (state.form ? await readFormBody(request, maxBytes, state.form) : await readJsonBody(request, maxBytes));
  const body = spec.body ? parseWith(spec.body, raw, "field") : undefined;
  state.facts.body = (body ?? {}) as Record<string, unknown>;

  const { accounts, settings } = await accountsFor(request, state);
  return handler({
    params,
    query,
    body,
    client,
    upstreams: getUpstreams,
    requestId: state.requestId,
    request,
    user: state.user,
    session: state.session,
    accounts,
    sessionSettings: settings,
    cookies: state.jar,
    clientAddress: clientAddress(request.headers, accounts.config.edge),
    audit: (entry: HandlerAuditEntry) =>
      writeAudit(accounts, {
        userId: state.user?.id ?? null,
        userEmail: state.user?.email ?? null,
        ...entry,
        requestId: state.requestId,
      }),
    form: state.form,
  } as unknown as HandlerContext<S>);
}

/** The operation's audit row: what was done, to what, and whether it worked, was refused, or failed. */
async function auditOperation(spec: OperationSpec, state: RequestState, status: number, error: ApiError | null): Promise<void> {
  const { audit } = spec;
  // A known user means authorize() has loaded the accounts.
  const accounts = state.accounts;
  if (!audit || !state.user || !accounts) return;
  const outcome =
    audit.outcome?.(state.facts, error?.code ?? null) ??
    (error === null ? "success" : error.code === "forbidden" || error.code === "rate_limited" ? "denied" : "failure");
  const action = typeof audit.action === "function" ? audit.action(state.facts) : audit.action;
  const entry: AuditEntry = { userId: state.user.id, userEmail: state.user.email, action, target: null, outcome, requestId: state.requestId };
  try {
    const target = audit.target?.(state.facts) ?? null;
    entry.target = target === null ? null : auditTarget(target, accounts);
    entry.detail = error === null ? audit.detail?.(state.facts) : { error_code: error.code, status };
  } catch (cause) {
    // A bug in an operation's audit description must not cost the row: write what is known.
    logEvent("error", "audit_description_failed", { request_id: state.requestId, error: describeError(cause) });
  }
  await writeAudit(accounts, entry);
}

function auditTarget(target: AuditTargetSpec, accounts: Accounts): AuditTarget {
  return target.type === "purchase_code" ? purchaseCodeTarget(target.code, accounts.config.purchaseCodeHashKey) : target;
}

/**
 * Writes one audit row. A failed write does not change the answer — the change upstream has happened and cannot
 * be taken back, and failing the request would invite a retry that repeats it — but it is logged at error level
 * with everything the row would have held, so that it can be restored from the log.
 */
async function writeAudit(accounts: Accounts, entry: AuditEntry): Promise<void> {
  try {
    await recordAudit(accounts.db, entry);
  } catch (error) {
    logEvent("error", "audit_write_failed", {
      request_id: entry.requestId,
      audit: { ...entry, target: entry.target ?? null },
      error: describeError(error),
    });
  }
}

function parseWith(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInput(result.error, where);
  return result.data;
}

/**
 * The query string as an object. An empty value counts as absent; a repeated parameter is refused. A parameter
 * named like a property of every object (`constructor`, `toString`) is an ordinary name here, so the schema
 * refuses it as unknown like any other: the object has no prototype, and only own keys count. (A `__proto__`
 * parameter never gets here: Next's router copies the query into a plain object, where that name is lost.)
 */
function queryObject(request: NextRequest): Record<string, string> {
  const query: Record<string, string> = Object.create(null);
  const repeated: Record<string, string> = Object.create(null);
  const seen = new Set<string>();
  for (const [name, value] of request.nextUrl.searchParams) {
    if (seen.has(name)) repeated[name] = `${name} is given more than once; give it once`;
    seen.add(name);
    if (value !== "") query[name] = value;
  }
  if (Object.keys(repeated).length > 0) {
    throw new ApiError("invalid_input", `Invalid query parameter: ${Object.keys(repeated).join(", ")}. See fields for details.`, { fields: repeated });
  }
  return query;
}

/** JSON.parse, with every object of the result made prototype-less: `__proto__` stays an ordinary own key. */
function parseJsonWithoutPrototypes(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? Object.assign(Object.create(null), value) : value,
  );
}

async function readJsonBody(request: NextRequest, maxBytes: number): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with the header Content-Type: application/json.");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
  const text = await readCappedText(request.body, maxBytes, () => bodyTooLarge(maxBytes));
  if (text.trim() === "") throw new ApiError("invalid_json", "The request body is empty; send a JSON object.");
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
function isHtmlForm(request: NextRequest, spec: OperationSpec): boolean {
  return spec.form !== undefined && FORM_CONTENT_TYPE.test(request.headers.get("content-type") ?? "");
}

/**
 * An HTML form's fields as an object for the operation's body schema, without `next` (where to go afterwards,
 * kept in `form` once it is known to be a path of this site). A field given twice is refused, as in a query.
 */
async function readFormBody(request: NextRequest, maxBytes: number, form: { next: string }): Promise<Record<string, string>> {
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
  if (Object.keys(repeated).length > 0) throw new ApiError("invalid_input", `Invalid field: ${Object.keys(repeated).join(", ")}.`, { fields: repeated });
  return { ...body };
}

/**
 * A failed HTML form goes back to its page, which says what went wrong from the error code (and, for a rate
 * limit, the wait); nothing the person typed travels in the URL, the password least of all.
 */
function formFailure(page: string, error: ApiError, next: string): NextResponse {
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

function bodyTooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
}

function toResponse(reply: Reply): NextResponse {
  if (reply.status === 204) return new NextResponse(null, { status: 204, headers: reply.headers });
  if (reply.status === 303) return seeOtherResponse(reply.location);
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

function errorResponse(error: ApiError, requestId: string): NextResponse {
  return jsonResponse(errorBody(error, requestId), error.status, error.headers);
}

/**
 * A JSON answer with every registered key removed, in whatever encoding an upstream may have echoed it (an
 * account field, an error message): Gatehouse's keys never reach a client, even through the upstream's own text.
 */
function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): NextResponse {
  return new NextResponse(redactSecrets(JSON.stringify(body)), {
    status,
    headers: { ...headers, "Content-Type": "application/json" },
  });
}

function toApiError(error: unknown, spec: OperationSpec, rawParams: Record<string, string | string[] | undefined>): ApiError {
  if (isApiError(error)) return error;
  if (isAccountError(error)) return fromAccountError(error);
  if (isPurchaseCodeRefused(error)) return fromPurchaseCodeRefused(error);
  // The repositories validate again with the same schemas; a refusal there is still the client's input.
  if (isZodError(error)) return invalidInput(error, "field");
  if (isUpstreamError(error)) {
    const notFound = (spec.notFound ?? "Not found.").replace(/\{(\w+)\}/g, (_, name: string) => String(rawParams[name] ?? ""));
    return fromUpstreamError(error, notFound);
  }
  return new ApiError("internal", "Something went wrong inside Gatehouse. The request id identifies it in the server log.");
}

/**
 * A zod validation failure (zod 4 names its errors "ZodError"). By name and shape, not `instanceof`, like every
 * error test here (lib/brand.ts) — and not `instanceof Error` either: `.parse()` throws an Error subclass, but a
 * `new z.ZodError(issues)` (the accounts store builds one for a password the policy refuses) is a plain object.
 */
function isZodError(error: unknown): error is z.ZodError {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "ZodError" && Array.isArray((error as { issues?: unknown }).issues);
}

function writeLogLine(
  request: NextRequest,
  spec: OperationSpec,
  status: number,
  started: number,
  context: RequestContext,
  failure: { cause: unknown; answer: ApiError } | null,
  user: User | null,
): void {
  const fields: Record<string, unknown> = {
    request_id: context.requestId,
    method: request.method,
    path: request.nextUrl.pathname,
    operation: spec.id,
    status,
    duration_ms: Math.round(performance.now() - started),
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

const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * Handlers for what a route does not serve: a JSON 405 with `Allow` (plus X-Request-Id and a log line) instead
 * of Next's empty one, and an OPTIONS answer whose `Allow` lists the real methods. Use as
 * `export const { PUT, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);`.
 */
export function methodsNotAllowed(allowed: readonly RouteMethod[]): Record<RouteMethod | "OPTIONS", RouteHandler> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const spec = {
    id: "methodNotAllowed",
    method: "GET",
    path: "",
    summary: "Method not allowed",
    tag: "Operations",
    permission: "public",
    success: { status: 204, description: "OPTIONS" },
  } as const satisfies OperationSpec;
  const refuse = defineRoute(spec, async () => {
    throw new ApiError("method_not_allowed", `This route answers ${allow} only.`, { headers: { Allow: allow } });
  });
  const options = defineRoute(spec, async () => ({ status: 204, headers: { Allow: allow } }));
  const handlers = Object.fromEntries(ROUTE_METHODS.map((method) => [method, refuse]));
  return { ...handlers, OPTIONS: options } as Record<RouteMethod | "OPTIONS", RouteHandler>;
}
