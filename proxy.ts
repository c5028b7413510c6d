// Runs before every request (no matcher: the API and static files get their headers too). It does two cheap
// things and no real check:
// - security headers on every response: pages get a Content-Security-Policy with a fresh script nonce (passed to
//   the render in the x-nonce request header, and in the request's own CSP header, from which Next takes the
//   nonce for its scripts); everything else a strict static policy (lib/auth/security-headers.ts);
// - a page request without any session cookie is sent to /login?next=<path> at once.
// Whether a session is valid (sealed, not expired, not ended, user enabled) and what its role may do is decided
// by the store, in every route handler (lib/api/route.ts) and every page (lib/auth/current-user.ts) — never here.
import { NextResponse, type NextRequest } from "next/server";

import { NONCE_HEADER, PAGE_PATH_HEADER, SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME } from "@/lib/auth/edge-names";
import { isHttps, parseEdgeSettings, type EdgeSettings } from "@/lib/auth/request";
import {
  commonSecurityHeaders,
  newNonce,
  pageContentSecurityPolicy,
  STATIC_CONTENT_SECURITY_POLICY,
} from "@/lib/auth/security-headers";

/** Pages anyone may open. */
const PUBLIC_PAGES = new Set(["/login"]);

let edgeSettings: EdgeSettings | undefined;

/** A bad TRUST_PROXY or PUBLIC_ORIGIN stops the server at start (instrumentation.ts); here the parse cannot fail. */
function settings(): EdgeSettings {
  edgeSettings ??= parseEdgeSettings(process.env).settings;
  return edgeSettings;
}

/** Pages are everything but the API, Next's own files and files with an extension (icons, robots.txt…). */
function isPage(pathname: string): boolean {
  if (pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/_next/")) return false;
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

export function proxy(request: NextRequest): NextResponse {
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
