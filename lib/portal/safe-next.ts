// Where to go after signing in. `next` comes from the URL, so anyone can craft it: only a path on this site is
// followed ("/reports?page=2"), never another origin ("//evil.example", "https://…", "/\evil.example").
export function safeNextPath(next: string | string[] | undefined | null, fallback = "/"): string {
  const value = Array.isArray(next) ? next[0] : next;
  if (typeof value !== "string" || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  // The login page itself is no destination: it would only ask again.
  if (value === "/login" || value.startsWith("/login?") || value.startsWith("/login/")) return fallback;
  return value;
}
