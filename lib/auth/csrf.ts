// Cross-site request forgery: the rule every state-changing request (POST, PUT, PATCH, DELETE — sign-in and
// sign-out included) must pass. A page on another site can make a browser send a form or a "simple" fetch with
// the victim's cookie, but it cannot add a custom header without a CORS preflight, which Gatehouse never
// approves: so `X-CSRF: 1` proves the request came from our own pages or from a script, not from a forged
// form. Origin and Sec-Fetch-Site, where the browser sends them, are checked as a second line.
//
// One exception: the sign-in form must work without JavaScript, so it posts as a plain HTML form, which cannot
// carry the header. Such a request must instead carry the portal's own Origin (every current browser sends Origin
// on a form POST): a form on another site has another Origin, and so sets no session.
import { portalOrigin, type HeaderReader } from "./request";
import { type EdgeSettings } from "@/lib/config/edge";

export const CSRF_HEADER = "X-CSRF";
export const CSRF_HEADER_VALUE = "1";

/**
 * Why the request is refused, in words a person (or a script's author) can act on; null when it passes.
 * `htmlForm`: a form posted without JavaScript (sign-in), which proves itself by its Origin instead of X-CSRF.
 */
export function csrfRefusal(headers: HeaderReader, settings: EdgeSettings, { htmlForm = false } = {}): string | null {
  const marked = headers.get(CSRF_HEADER) === CSRF_HEADER_VALUE;
  if (!marked && !htmlForm) {
    return `Requests that change something must carry the header ${CSRF_HEADER}: ${CSRF_HEADER_VALUE}.`;
  }
  if (!marked && headers.get("origin") === null) {
    return `A form must come from this portal's own page (the browser sends its Origin), or carry the header ${CSRF_HEADER}: ${CSRF_HEADER_VALUE}.`;
  }
  const site = headers.get("sec-fetch-site")?.toLowerCase();
  if (site === "cross-site" || site === "same-site") {
    return "This request came from another site; Gatehouse accepts changes only from its own pages.";
  }
  const origin = headers.get("origin");
  if (origin !== null) {
    // "null" is what a browser sends from a sandboxed frame, a data: URL or after a cross-site redirect.
    if (origin === "null")
      return "This request came from an opaque origin (Origin: null); Gatehouse accepts changes only from its own pages.";
    const own = portalOrigin(headers, settings);
    if (own === null || origin.toLowerCase() !== own.toLowerCase()) {
      return `This request came from ${origin.slice(0, 200)}, not from this portal${own ? ` (${own})` : ""}; Gatehouse accepts changes only from its own pages.`;
    }
  }
  return null;
}
