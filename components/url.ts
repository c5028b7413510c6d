// Upstream data is untrusted: a URL from it may be `javascript:`, `data:` or garbage. Only absolute http(s)
// URLs become links or media sources; everything else is shown as text or not at all.

/** The URL, normalised, when it is an absolute http: or https: URL; otherwise null. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null; // not an absolute URL
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // Credentials in a link are a phishing trick ("https://bank.com@evil.example"); refuse them.
  if (url.username !== "" || url.password !== "") return null;
  return url.href;
}
