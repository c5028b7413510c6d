// The one wrapper around every route handler of the portal API. In order, it:
// 1. gives the request an id (X-Request-Id on every answer and in the log line);
// 2. checks the operation's permission (the hook the accounts issue fills in);
// 3. answers 503 when the operation's upstream area is not configured;
// 4. validates path parameters, query and JSON body with the operation's zod schemas (400 with `fields`);
// 5. runs the handler, which calls one client function and shapes the answer;
// 6. turns every error into the error envelope — UpstreamError into 404/400/429/502/504, anything unexpected
//    into a 500 `internal` without detail — and writes one structured, redacted log line.
import "server-only";

import type { NextRequest } from "next/server";
import type { z } from "zod";

import { describeError, logEvent, runWithRequestContext, type RequestContext } from "@/lib/log";
import { getUpstreams, UpstreamError, type ItemsClient, type ReportsClient, type Upstreams } from "@/lib/upstream";

import { ApiError, areaNotConfigured, errorBody, fromUpstreamError, invalidInput } from "./errors";
import type { OperationSpec, Permission } from "./operations";

/** Cap on JSON request bodies: our largest input is a 2048-character URL. */
export const MAX_BODY_BYTES = 64 * 1024;

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type ClientOf<A> = A extends "reports" ? ReportsClient : A extends "items" ? ItemsClient : undefined;

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
}

/** What a handler answers: a JSON body with a status, or 204 without one. */
export type Reply =
  | { status: 200 | 201 | 503; json: unknown; headers?: Record<string, string> }
  | { status: 204; headers?: Record<string, string> };

export const ok = (data: unknown): Reply => ({ status: 200, json: { data } });
export const created = (data: unknown): Reply => ({ status: 201, json: { data } });
export const noContent = (): Reply => ({ status: 204 });

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: NextRequest, context: RouteContext) => Promise<Response>;

/**
 * The permission hook. Every operation declares its permission; until the accounts issue adds sessions and
 * roles, every permission is granted. Enforcement belongs here, and only here: return an ApiError to refuse.
 */
async function authorize(_request: NextRequest, _permission: Permission): Promise<ApiError | null> {
  return null;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * A well-formed incoming X-Request-Id (from a proxy in front of Gatehouse) is kept so that logs line up;
 * anything else is replaced. The pattern keeps log lines and headers safe from injected text.
 */
function requestIdFor(request: NextRequest): string {
  const incoming = request.headers.get("x-request-id");
  return incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
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

    return runWithRequestContext(logContext, async () => {
      let failure: { cause: unknown; answer: ApiError } | null = null;
      let reply: Response;
      try {
        rawParams = (await routeContext?.params) ?? {};
        reply = toResponse(await handle(spec, handler, request, rawParams, requestId));
      } catch (error) {
        failure = { cause: error, answer: toApiError(error, spec, rawParams) };
        reply = errorResponse(failure.answer, requestId);
      }
      reply.headers.set("X-Request-Id", requestId);
      // Answers hold per-account data: no shared cache may keep them.
      reply.headers.set("Cache-Control", "no-store");
      writeLogLine(request, spec, reply.status, started, logContext, failure);
      return reply;
    });
  };
}

async function handle<S extends OperationSpec>(
  spec: S,
  handler: (context: HandlerContext<S>) => Promise<Reply>,
  request: NextRequest,
  rawParams: Record<string, string | string[] | undefined>,
  requestId: string,
): Promise<Reply> {
  const refusal = await authorize(request, spec.permission);
  if (refusal) throw refusal;

  let client: ReportsClient | ItemsClient | undefined;
  if (spec.area) {
    const areaClient = (await getUpstreams())[spec.area];
    if (!areaClient) throw areaNotConfigured(spec.area);
    client = areaClient;
  }

  const params = parseWith(spec.params, rawParams, "path segment");
  const query = spec.query ? parseWith(spec.query, queryObject(request), "query parameter") : undefined;
  const body = spec.body ? parseWith(spec.body, await readJsonBody(request), "field") : undefined;

  return handler({
    params,
    query,
    body,
    client,
    upstreams: getUpstreams,
    requestId,
    request,
  } as HandlerContext<S>);
}

function parseWith(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInput(result.error, where);
  return result.data;
}

/** The query string as an object. An empty value counts as absent; a repeated parameter is refused. */
function queryObject(request: NextRequest): Record<string, string> {
  const query: Record<string, string> = {};
  const repeated: Record<string, string> = {};
  for (const [name, value] of request.nextUrl.searchParams) {
    if (name in query) repeated[name] = `${name} is given more than once; give it once`;
    if (value !== "") query[name] = value;
  }
  if (Object.keys(repeated).length > 0) {
    throw new ApiError("invalid_input", `Invalid query parameter: ${Object.keys(repeated).join(", ")}. See fields for details.`, { fields: repeated });
  }
  return query;
}

async function readJsonBody(request: NextRequest): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with the header Content-Type: application/json.");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw bodyTooLarge();
  const text = await readCappedText(request);
  if (text.trim() === "") throw new ApiError("invalid_json", "The request body is empty; send a JSON object.");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError("invalid_json", "The request body must be a JSON object.");
  }
  return body;
}

function bodyTooLarge(): ApiError {
  return new ApiError("payload_too_large", `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
}

async function readCappedText(request: NextRequest): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel();
      throw bodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

function toResponse(reply: Reply): Response {
  if (reply.status === 204) return new Response(null, { status: 204, headers: reply.headers });
  return Response.json(reply.json, { status: reply.status, headers: reply.headers });
}

function errorResponse(error: ApiError, requestId: string): Response {
  return Response.json(errorBody(error, requestId), { status: error.status, headers: error.headers });
}

function toApiError(error: unknown, spec: OperationSpec, rawParams: Record<string, string | string[] | undefined>): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UpstreamError) {
    const notFound = (spec.notFound ?? "Not found.").replace(/\{(\w+)\}/g, (_, name: string) => String(rawParams[name] ?? ""));
    return fromUpstreamError(error, notFound);
  }
  return new ApiError("internal", "Something went wrong inside Gatehouse. The request id identifies it in the server log.");
}

function writeLogLine(
  request: NextRequest,
  spec: OperationSpec,
  status: number,
  started: number,
  context: RequestContext,
  failure: { cause: unknown; answer: ApiError } | null,
): void {
  const fields: Record<string, unknown> = {
    request_id: context.requestId,
    method: request.method,
    path: request.nextUrl.pathname,
    operation: spec.id,
    status,
    duration_ms: Math.round(performance.now() - started),
    upstream: context.upstreamCalls,
  };
  if (failure) {
    fields.error_code = failure.answer.code;
    // What the client was not told: the upstream's side of the story, or the unexpected error itself.
    if (failure.cause instanceof UpstreamError) fields.upstream_error = failure.cause.message;
    else if (!(failure.cause instanceof ApiError)) fields.error = describeError(failure.cause);
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
