// Names shared by proxy.ts and the server code behind it, kept apart from the session and store code so that
// proxy.ts can use them without loading either.

export const SESSION_COOKIE_NAME = "gatehouse_session";
/** Over https: the __Host- prefix makes the browser refuse the cookie unless Secure, Path=/ and no Domain. */
export const SECURE_SESSION_COOKIE_NAME = "__Host-gatehouse_session";

/** Request header proxy.ts sets on page requests: this request's CSP script nonce (read with `headers()`). */
export const NONCE_HEADER = "x-nonce";
/** Request header proxy.ts sets on page requests: the page's path and query, for the sign-in redirect's `next`. */
export const PAGE_PATH_HEADER = "x-gatehouse-path";
