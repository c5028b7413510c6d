// What Gatehouse may believe about a request's edge: the host name it was sent to (and whether that name is
// served), the client's address, whether it came over https, and the portal's own origin. Behind a reverse
// proxy these come from X-Forwarded-* headers, which a client can also write; they are believed only when the
// operator says a proxy sets them (TRUST_PROXY, read with the other edge settings in lib/config/edge.ts). No
// `server-only` and no store: proxy.ts uses this too.
import { isLoopbackHostname, originOf, type EdgeSettings } from "@/lib/config/edge";

/** The subset of Headers read here (Headers, and Next's `await headers()`, fit it). */
export interface HeaderReader {
  get(name: string): string | null;
}

function listHeader(headers: HeaderReader, name: string): string[] {
  return (headers.get(name) ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

/**
 * The entry of an X-Forwarded-* list that the outermost trusted proxy wrote, or undefined without TRUST_PROXY.
 * Each proxy appends what it saw (or replaces the header with it), so the entry TRUST_PROXY places from the right
 * is the trusted one; entries further left were written by the client (or an untrusted hop) and are never used.
 * The one reading of X-Forwarded-For, -Host and -Proto, so that a spoofed leftmost value fools none of them.
 */
function trustedForwarded(
  headers: HeaderReader,
  name: "x-forwarded-for" | "x-forwarded-host" | "x-forwarded-proto",
  settings: EdgeSettings,
): string | undefined {
  if (settings.trustProxyHops === 0) return undefined;
  const chain = listHeader(headers, name);
  return chain[Math.max(0, chain.length - settings.trustProxyHops)];
}

/**
 * The client's address, or null when Gatehouse cannot know it. Next does not hand route handlers the socket's
 * address, and it keeps an X-Forwarded-For the client sent, so the header is read only with TRUST_PROXY, at the
 * trusted hop (trustedForwarded): rotating the entries further left does not dodge a per-address limit.
 */
export function clientAddress(headers: HeaderReader, settings: EdgeSettings): string | null {
  const entry = trustedForwarded(headers, "x-forwarded-for", settings);
  if (entry === undefined) return null;
  // "[::1]:1234" and "1.2.3.4:5678" from some proxies: the address without the port; anything odd is capped.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return (bracketed?.[1] ?? withPort?.[1] ?? entry).slice(0, 64).toLowerCase();
}

/**
 * Whether the browser talks to Gatehouse over https: PUBLIC_ORIGIN says so, or (TRUST_PROXY) the proxy's
 * X-Forwarded-Proto does. `next start` itself serves plain http, so without either the answer is no.
 */
export function isHttps(headers: HeaderReader, settings: EdgeSettings): boolean {
  if (settings.publicOrigin) return settings.publicOrigin.startsWith("https:");
  return trustedForwarded(headers, "x-forwarded-proto", settings)?.toLowerCase() === "https";
}

/** The host name the request was sent to: the Host header, or with TRUST_PROXY the proxy's X-Forwarded-Host. */
export function requestHost(headers: HeaderReader, settings: EdgeSettings): string | null {
  return trustedForwarded(headers, "x-forwarded-host", settings) ?? headers.get("host");
}

/** The host name without its port, lower case ("[::1]" keeps its brackets); null when it is not one. */
function hostnameOf(host: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase() ?? null;
}

/**
 * Whether Gatehouse serves a request sent to `host`. Loopback names always; demo mode nothing else; a configured
 * deployment the names of PUBLIC_ORIGIN and ALLOWED_HOSTS (an entry with a port matches only that port), or any
 * name when neither is set.
 */
export function isAllowedHost(host: string | null, settings: EdgeSettings): boolean {
  if (!host) return false;
  const hostname = hostnameOf(host);
  if (hostname === null) return false;
  if (isLoopbackHostname(hostname)) return true;
  if (settings.allowedHosts === null) return true;
  const lower = host.trim().toLowerCase();
  return settings.allowedHosts.some((entry) => entry === hostname || entry === lower);
}

/**
 * The origin browsers use for the portal: PUBLIC_ORIGIN, or the request's host (see requestHost) with the
 * protocol from isHttps — only when that host is served. A page on another site cannot choose the Host its
 * victim's browser sends, except by pointing its own name at the portal (DNS rebinding): that name is not served.
 */
export function portalOrigin(headers: HeaderReader, settings: EdgeSettings): string | null {
  if (settings.publicOrigin) return settings.publicOrigin;
  const host = requestHost(headers, settings);
  if (!host || !isAllowedHost(host, settings)) return null;
  return originOf(`${isHttps(headers, settings) ? "https" : "http"}://${host}`);
}
