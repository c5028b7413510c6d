// Where to go after signing in. `next` comes from the URL, so anyone can craft it: only a path on this site is
// followed ("/reports?page=2"), never another origin ("//evil.example", "https://…", "/\evil.example").
//
// The answer goes into a Location header, which carries only ASCII: the path is returned as a URL parser
// writes it, every other character percent-encoded as UTF-8 ("/%E2%80%AE"), existing escapes kept as they are.

/** Any absolute base: only its origin is compared, never requested. */
const BASE = "http://gatehouse.invalid";

export function safeNextPath(next: string | string[] | undefined | null, fallback = "/"): string {
  const value = Array.isArray(next) ? next[0] : next;
  if (typeof value !== "string" || value.length > 2048) return fallback;
  if (!isLocalPath(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments are resolved by the parser ("/.//evil.example" is "//evil.example"): check again what comes out.
  if (!isLocalPath(path)) return fallback;
  // The login page itself is no destination: it would only ask again.
  if (url.pathname === "/login" || url.pathname.startsWith("/login/")) return fallback;
  return path;
}

function isLocalPath(value: string): boolean {
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return false;
  // Control characters and backslashes: a browser may read "/\x09/evil" or "/\\evil" as another host.
  return !/[\u0000-\u001f\u007f\\]/.test(value);
}
