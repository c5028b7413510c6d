// Runs before every request but the API's (config.matcher below): the API's route wrapper (lib/api/route.ts)
// does the same first checks itself, more cheaply than a proxy run. Here:
// - the host check (421) and the untrusted-proxy notice, and the security headers on every answer: pages get a
//   Content-Security-Policy with a fresh script nonce (passed to the render in the x-nonce request header, and in
//   the request's own CSP header, from which Next takes the nonce for its scripts); everything else a strict
//   static policy (lib/auth/edge.ts, lib/auth/security-headers.ts);
// - a page request without any session cookie is sent to /login?next=<path> at once.
// Whether a session is valid (sealed, not expired, not ended, user enabled) and what its role may do is decided
// by the store, in every route handler (lib/api/route.ts) and every page (lib/auth/current-user.ts) — never here.
import { NextResponse, type NextRequest } from "next/server";

import { admitRequest, withSecurityHeaders } from "@/lib/auth/edge";
import { NONCE_HEADER, PAGE_PATH_HEADER, SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME } from "@/lib/auth/edge-names";
import { newNonce, pageContentSecurityPolicy, STATIC_CONTENT_SECURITY_POLICY } from "@/lib/auth/security-headers";

/** Everything but /api and /api/…, which lib/api/route.ts admits itself. */
export const config = { matcher: ["/((?!api/|api$).*)"] };

/**
 * Pages anyone may open (an e-mail's unsubscribe link proves itself with its signed token; the second step of a
 * sign-in has no session yet, only the pending sign-in's cookie, which the page checks itself).
 */
const PUBLIC_PAGES = new Set(["/login", "/login/second-step", "/notifications/unsubscribe"]);

/** Pages are everything here but /metrics, Next's own files and files with an extension (icons, robots.txt…). */
function isPage(pathname: string): boolean {
  if (pathname.startsWith("/_next/") || pathname === "/metrics") return false;
  const lastSegment = pathname.slice(pathname.lastIndexOf("/") + 1);
  return !/\.[A-Za-z0-9]+$/.test(lastSegment);
}

function hasSessionCookie(request: NextRequest): boolean {
  return request.cookies.has(SESSION_COOKIE_NAME) || request.cookies.has(SECURE_SESSION_COOKIE_NAME);
}

export function proxy(request: NextRequest): NextResponse {
  const admitted = admitRequest(request);
  if (admitted.refusal) return admitted.refusal;
  const { https } = admitted;
  const { pathname, search } = request.nextUrl;

  if (!isPage(pathname)) return withSecurityHeaders(NextResponse.next(), STATIC_CONTENT_SECURITY_POLICY, https);

  const here = `${pathname}${search}`;
  if (!PUBLIC_PAGES.has(pathname) && !hasSessionCookie(request)) {
    const login = new URL("/login", request.nextUrl);
    login.search = `?next=${encodeURIComponent(here)}`;
    return withSecurityHeaders(NextResponse.redirect(login, 307), STATIC_CONTENT_SECURITY_POLICY, https);
  }

  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce, { https, development: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(NONCE_HEADER, nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  // Overwrites whatever a client sent: requirePageUser() trusts this header for the redirect after sign-in.
  requestHeaders.set(PAGE_PATH_HEADER, here);
  return withSecurityHeaders(NextResponse.next({ request: { headers: requestHeaders } }), policy, https);
}
