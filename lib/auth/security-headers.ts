// The security headers of every response, built in one place and applied by lib/auth/edge.ts (for proxy.ts and the API route wrapper). Pages get a
// Content-Security-Policy with a fresh script nonce per request; everything else (the API, static files) a
// strict static one, since none of it is a document that runs scripts. No `server-only`: proxy.ts uses it.

export interface SecurityHeaderOptions {
  /** Served over https (lib/auth/request.ts isHttps): adds HSTS and upgrade-insecure-requests. */
  https: boolean;
  /** `next dev`: React needs eval for its debugging aids. */
  development?: boolean;
}

/** A fresh nonce for one page render: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The page policy. Scripts run only with this request's nonce; 'strict-dynamic' lets those scripts load the
 * chunks they need. Styles may be inline (React style attributes); images and media may come from https
 * (the upstreams' media are remote URLs).
 */
export function pageContentSecurityPolicy(
  nonce: string,
  { https, development = false }: SecurityHeaderOptions,
): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data:",
    "media-src 'self' https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** For answers that are not pages (JSON, files): nothing may run, load, embed or be embedded. */
export const STATIC_CONTENT_SECURITY_POLICY =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Two years, subdomains included: the portal's host is https-only once an operator serves it over https. */
export const HSTS_VALUE = "max-age=63072000; includeSubDomains";

/** The headers every response carries besides the CSP. */
export function commonSecurityHeaders({ https }: SecurityHeaderOptions): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY", // for browsers without CSP frame-ancestors
    ...(https ? { "Strict-Transport-Security": HSTS_VALUE } : {}),
  };
}
