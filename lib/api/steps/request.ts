// What one API request carries through the steps of lib/api/route.ts: the operation, who asks (once a step has
// found out), the validated input, the cookies to send back, and the facts its audit row needs. Each step reads
// and fills it; the handler gets it as its HandlerContext.
import "server-only";

import type { NextRequest, NextResponse } from "next/server";

import { getServerContext, sessionSettingsFor, type ServerContext } from "@/lib/auth/access";
import type { Caller } from "@/lib/auth/permissions";
import type { SessionCookieOptions, SessionCookieStore, SessionData, SessionSettings } from "@/lib/auth/session";
import type { User } from "@/lib/auth/users";
import type { TokenLimits } from "@/lib/tokens/quota";
import type { ItemsClient, ReportsClient } from "@/lib/upstream";
import { currentTraceId } from "@/lib/telemetry";

import type { AuditFacts, OperationSpec } from "../operations";

/** The request's cookies, with writes kept until the answer exists (it may be an error built later). */
export class CookieJar implements SessionCookieStore {
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

/** The API token a request came with, as the bearer step found it. */
export interface ApiToken {
  id: string;
  name: string;
  scopes: readonly string[];
  expiresAt: string | null;
}

export interface ApiRequest {
  request: NextRequest;
  spec: OperationSpec;
  requestId: string;
  jar: CookieJar;
  /** The path parameters as the route gave them (before validation). */
  rawParams: Record<string, string | string[] | undefined>;
  /** Loaded by the first step that needs them (serverContextOf). */
  server?: ServerContext;
  settings?: SessionSettings;
  /** Who asks, once a step has found out; null for an anonymous request. */
  user: User | null;
  session: SessionData | null;
  /** The API token the request came with (Authorization: Bearer gth_…), once the bearer step has checked it. */
  token: ApiToken | null;
  /** The token's own limits (null: none of its own), read with it by the bearer step. */
  tokenLimits?: TokenLimits;
  /** True once the limit step counted a token request against its limits: its usage outcome is no longer "denied". */
  limitsCounted?: boolean;
  /** Headers every answer to the request carries (a token's quota: its limit, what remains, when it resets). */
  extraHeaders?: Record<string, string>;
  /** Why a session that was there opens nothing any more (a single sign-on re-check ended it): the 401's sentence. */
  endedBecause?: string;
  /** The operation's upstream client, when it has an area. */
  client?: ReportsClient | ItemsClient;
  params?: unknown;
  query?: unknown;
  body?: unknown;
  /** A signed body's bytes as they came (OperationSpec.rawBody), for the handler to check and then read. */
  rawBody?: Buffer;
  /** What the audit row needs: the input as far as it was validated, and the answer's data. */
  facts: AuditFacts;
  /** Set when the request is the operation's HTML form (see OperationSpec.form). */
  form: { next: string } | null;
}

/** Who asks, as permission checks take him: the user, within the token's scopes for a token request. */
export function callerOf(state: Pick<ApiRequest, "user" | "token">): Caller | null {
  return state.user ? { role: state.user.role, scopes: state.token?.scopes ?? null } : null;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * With traces on, the request's trace id (lib/telemetry): the error envelope's request_id, the X-Request-Id header
 * and the log line then lead an operator straight to the trace. Otherwise a well-formed incoming X-Request-Id
 * (from a proxy in front of Gatehouse) is kept so that logs line up; anything else is replaced. The pattern keeps
 * log lines and headers safe from injected text.
 */
export function requestIdFor(request: NextRequest): string {
  const traceId = currentTraceId();
  if (traceId !== null) return traceId;
  const incoming = request.headers.get("x-request-id");
  return incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
}

/** The store, the server-side configuration and this request's session settings, loaded once per request. */
export async function serverContextOf(
  state: ApiRequest,
): Promise<{ server: ServerContext; settings: SessionSettings }> {
  state.server ??= await getServerContext();
  state.settings ??= sessionSettingsFor(state.server.config, state.request.headers);
  return { server: state.server, settings: state.settings };
}
