// What every answer gets before anything else runs, wherever it is built: proxy.ts for pages, /metrics and
// files; the route wrapper (lib/api/route.ts) for the API, which the proxy skips (a proxy run costs more than a
// bare route handler does: its own request, response and module lookups on every call).
// - a request sent to a host name the portal does not serve gets 421 and a log line (isAllowedHost): demo mode
//   serves loopback names only, a configured one PUBLIC_ORIGIN's and ALLOWED_HOSTS'. A page elsewhere whose
//   name its owner points at this server (DNS rebinding) thus reaches nothing;
// - the security headers (./security-headers.ts);
// - once per process, a warning when requests come through a proxy TRUST_PROXY does not name.
// No `server-only`: proxy.ts uses it.
import { NextResponse, type NextRequest } from "next/server";

import { parseEdgeSettings, type EdgeSettings } from "@/lib/config/edge";
import { logEvent } from "@/lib/log";
import { processWide } from "@/lib/process-wide";

import { isAllowedHost, isHttps, requestHost } from "./request";
import { commonSecurityHeaders, STATIC_CONTENT_SECURITY_POLICY } from "./security-headers";

/**
 * The edge settings, and whether the proxy warning was given: once per process, for the proxy and every route.
 * A bad TRUST_PROXY, PUBLIC_ORIGIN or ALLOWED_HOSTS stops the server at start (instrumentation.ts); here the parse
 * cannot fail.
 */
function edgeState(): { settings: EdgeSettings; warnedOfProxy: boolean } {
  return processWide("auth.edge", () => ({ settings: parseEdgeSettings(process.env).settings, warnedOfProxy: false }));
}

/** Sets the Content-Security-Policy and the other security headers. */
export function withSecurityHeaders<R extends Response>(response: R, contentSecurityPolicy: string, https: boolean): R {
  response.headers.set("Content-Security-Policy", contentSecurityPolicy);
  for (const [name, value] of Object.entries(commonSecurityHeaders({ https }))) response.headers.set(name, value);
  return response;
}

/** 421 Misdirected Request: this server does not answer for that name. JSON for the API, text elsewhere. */
function misdirected(request: NextRequest, host: string | null): NextResponse {
  const shown = (host ?? "").slice(0, 200);
  logEvent("warn", "host_refused", {
    host: shown,
    method: request.method,
    path: request.nextUrl.pathname.slice(0, 200),
  });
  const message = `This portal does not answer to the host name ${JSON.stringify(shown)}. Open it at its own address.`;
  const response = request.nextUrl.pathname.startsWith("/api/")
    ? NextResponse.json({ error: { code: "misdirected_request", message } }, { status: 421 })
    : new NextResponse(`${message}\n`, { status: 421, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  response.headers.set("Cache-Control", "no-store");
  return withSecurityHeaders(response, STATIC_CONTENT_SECURITY_POLICY, false);
}

/**
 * Whether the request came through a proxy. Next fills X-Forwarded-For and -Proto itself when they are absent
 * (with the socket's address, and "http"), so their presence proves nothing; what only a proxy sends does: https
 * in X-Forwarded-Proto (next start serves http), a chain in X-Forwarded-For, Forwarded, X-Real-IP.
 */
function cameThroughProxy(request: NextRequest): boolean {
  const headers = request.headers;
  return (
    headers.get("x-forwarded-proto")?.toLowerCase() === "https" ||
    (headers.get("x-forwarded-for") ?? "").includes(",") ||
    headers.has("forwarded") ||
    headers.has("x-real-ip")
  );
}

function noticeUntrustedProxy(request: NextRequest): void {
  const state = edgeState();
  if (state.warnedOfProxy || state.settings.trustProxyHops > 0 || !cameThroughProxy(request)) return;
  state.warnedOfProxy = true;
  logEvent(
    "warn",
    "Requests come through a proxy (X-Forwarded-Proto: https, an X-Forwarded-For chain, Forwarded or X-Real-IP), but TRUST_PROXY is not set: clients' addresses are unknown (the per-address sign-in limit is off, purchase checks share one per-address bucket); set TRUST_PROXY=1 if that proxy appends X-Forwarded-For.",
  );
}

/** The first check of every request: its 421 when the host is not ours, else whether it came over https. */
export function admitRequest(request: NextRequest): { refusal: NextResponse } | { refusal: null; https: boolean } {
  const { settings } = edgeState();
  const host = requestHost(request.headers, settings);
  if (!isAllowedHost(host, settings)) return { refusal: misdirected(request, host) };
  noticeUntrustedProxy(request);
  return { refusal: null, https: isHttps(request.headers, settings) };
}
