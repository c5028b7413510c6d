// Runs before every request (no matcher: the API and static files get their headers too). It does three cheap
// things and no session check:
// - a request sent to a host name the portal does not serve gets 421 and a log line (lib/auth/request.ts
//   isAllowedHost): demo mode serves loopback names only, a configured one PUBLIC_ORIGIN's and ALLOWED_HOSTS'.
//   A page elsewhere whose name its owner points at this server (DNS rebinding) thus reaches nothing;
// - security headers on every response: pages get a Content-Security-Policy with a fresh script nonce (passed to
//   the render in the x-nonce request header, and in the request's own CSP header, from which Next takes the
//   nonce for its scripts); everything else a strict static policy (lib/auth/security-headers.ts);
// - a page request without any session cookie is sent to /login?next=<path> at once.
// Whether a session is valid (sealed, not expired, not ended, user enabled) and what its role may do is decided
// by the store, in every route handler (lib/api/route.ts) and every page (lib/auth/current-user.ts) — never here.
import { NextResponse, type NextRequest } from "next/server";

import { NONCE_HEADER, PAGE_PATH_HEADER, SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME } from "@/lib/auth/edge-names";
import { isAllowedHost, isHttps, requestHost } from "@/lib/auth/request";
import { parseEdgeSettings, type EdgeSettings } from "@/lib/config/edge";
import { logEvent } from "@/lib/log";
import {
  commonSecurityHeaders,
  newNonce,
  pageContentSecurityPolicy,
  STATIC_CONTENT_SECURITY_POLICY,
} from "@/lib/auth/security-headers";

/** Pages anyone may open. */
const PUBLIC_PAGES = new Set(["/login"]);

let edgeSettings: EdgeSettings | undefined;

/** A bad TRUST_PROXY, PUBLIC_ORIGIN or ALLOWED_HOSTS stops the server at start (instrumentation.ts); here the parse cannot fail. */
function settings(): EdgeSettings {
  edgeSettings ??= parseEdgeSettings(process.env).settings;
  return edgeSettings;
}

/** Pages are everything but the API, /metrics, Next's own files and files with an extension (icons, robots.txt…). */
function isPage(pathname: string): boolean {
  if (pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/_next/") || pathname === "/metrics") return false;
  const lastSegment = pathname.slice(pathname.lastIndexOf("/") + 1);
  return !/\.[A-Za-z0-9]+$/.test(lastSegment);
}

function hasSessionCookie(request: NextRequest): boolean {
  return request.cookies.has(SESSION_COOKIE_NAME) || request.cookies.has(SECURE_SESSION_COOKIE_NAME);
}

function withHeaders(response: NextResponse, contentSecurityPolicy: string, https: boolean): NextResponse {
  response.headers.set("Content-Security-Policy", contentSecurityPolicy);
  for (const [name, value] of Object.entries(commonSecurityHeaders({ https }))) response.headers.set(name, value);
  return response;
}

/** 421 Misdirected Request: this server does not answer for that name. JSON for the API, text elsewhere. */
function misdirected(request: NextRequest, host: string | null): NextResponse {
  const shown = (host ?? "").slice(0, 200);
  logEvent("warn", "host_refused", { host: shown, method: request.method, path: request.nextUrl.pathname.slice(0, 200) });
  const message = `This portal does not answer to the host name ${JSON.stringify(shown)}. Open it at its own address.`;
  const response = request.nextUrl.pathname.startsWith("/api/")
    ? NextResponse.json({ error: { code: "misdirected_request", message } }, { status: 421 })
    : new NextResponse(`${message}\n`, { status: 421, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  response.headers.set("Cache-Control", "no-store");
  return withHeaders(response, STATIC_CONTENT_SECURITY_POLICY, false);
}

let forwardedWithoutTrust = false;

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

/** Once per process: a proxy is in front of Gatehouse, but TRUST_PROXY does not say so. */
function noticeUntrustedProxy(request: NextRequest): void {
  if (forwardedWithoutTrust || settings().trustProxyHops > 0 || !cameThroughProxy(request)) return;
  forwardedWithoutTrust = true;
  logEvent(
    "warn",
    "Requests come through a proxy (X-Forwarded-Proto: https, an X-Forwarded-For chain, Forwarded or X-Real-IP), but TRUST_PROXY is not set: clients' addresses are unknown (the per-address sign-in limit is off, purchase checks share one per-address bucket); set TRUST_PROXY=1 if that proxy appends X-Forwarded-For.",
  );
}

export function proxy(request: NextRequest): NextResponse {
  const host = requestHost(request.headers, settings());
  if (!isAllowedHost(host, settings())) return misdirected(request, host);
  noticeUntrustedProxy(request);
  const https = isHttps(request.headers, settings());
  const { pathname, search } = request.nextUrl;

  if (!isPage(pathname)) return withHeaders(NextResponse.next(), STATIC_CONTENT_SECURITY_POLICY, https);

  const here = `${pathname}${search}`;
  if (!PUBLIC_PAGES.has(pathname) && !hasSessionCookie(request)) {
    const login = new URL("/login", request.nextUrl);
    login.search = `?next=${encodeURIComponent(here)}`;
    return withHeaders(NextResponse.redirect(login, 307), STATIC_CONTENT_SECURITY_POLICY, https);
  }

  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce, { https, development: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(NONCE_HEADER, nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  // Overwrites whatever a client sent: requirePageUser() trusts this header for the redirect after sign-in.
  requestHeaders.set(PAGE_PATH_HEADER, here);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), policy, https);
}
