// What Gatehouse may believe about a request's edge: the host name it was sent to (and whether that name is
// served), the client's address, whether it came over https, and the portal's own origin. Behind a reverse
// proxy these come from X-Forwarded-* headers, which a client can also write; they are believed only when the
// operator says a proxy sets them (TRUST_PROXY). No `server-only` and no store: proxy.ts uses this too.
import { z } from "zod";

import { isDemoMode } from "@/lib/config/mode";

type Env = Record<string, string | undefined>;

/** The subset of Headers read here (Headers, and Next's `await headers()`, fit it). */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface EdgeSettings {
  /**
   * How many reverse proxies in front of Gatehouse append to X-Forwarded-For (TRUST_PROXY). 0: none is trusted,
   * the client's address is unknown to Gatehouse, and X-Forwarded-* headers are ignored.
   */
  trustProxyHops: number;
  /** PUBLIC_ORIGIN, e.g. "https://portal.example.com": the origin browsers use; null to derive it per request. */
  publicOrigin: string | null;
  /**
   * Host names served besides loopback ones: PUBLIC_ORIGIN's and ALLOWED_HOSTS' (`name` or `name:port`), lower
   * case; null when neither is set, so any name is served. Demo mode serves loopback names only (an empty list):
   * a web page whose name an attacker points at 127.0.0.1 (DNS rebinding) is refused.
   */
  allowedHosts: string[] | null;
}

export interface EdgeProblem {
  variable: string;
  problem: string;
  value?: string;
}

const edgeEnvSchema = z.object({
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(\d{1,2}|true|false)$/i, "must be 0 (no proxy), 1 (one reverse proxy in front), a number of proxies, true or false")
    .optional(),
  PUBLIC_ORIGIN: z
    .string()
    .trim()
    .refine((value) => originOf(value) !== null, "must be the portal's origin, such as https://portal.example.com (http or https, no path, query or credentials)")
    .optional(),
  ALLOWED_HOSTS: z
    .string()
    .trim()
    .refine(
      (value) => value.split(",").every((entry) => HOST_ENTRY.test(entry.trim())),
      "must be host names separated by commas, each with an optional port (portal.example.com, 10.0.0.5:3000)",
    )
    .optional(),
});

// A DNS name, an IPv4 address or a bracketed IPv6 address, with an optional port.
const HOST_ENTRY = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function originOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return null;
  return url.origin;
}

function hopsFrom(value: string | undefined): number {
  if (value === undefined) return 0;
  const lower = value.trim().toLowerCase();
  if (lower === "true") return 1;
  if (lower === "false") return 0;
  return Number(lower);
}

/** The settings of demo mode, whatever the environment says: loopback names only, no proxy, no public origin. */
export const DEMO_EDGE_SETTINGS: EdgeSettings = Object.freeze({ trustProxyHops: 0, publicOrigin: null, allowedHosts: [] });

/**
 * Reads TRUST_PROXY, PUBLIC_ORIGIN and ALLOWED_HOSTS (demo mode ignores them). An empty variable counts as unset;
 * a bad one is a problem, not a guess.
 */
export function parseEdgeSettings(env: Env): { settings: EdgeSettings; problems: EdgeProblem[] } {
  if (isDemoMode(env)) return { settings: DEMO_EDGE_SETTINGS, problems: [] };
  const present = Object.fromEntries(
    ["TRUST_PROXY", "PUBLIC_ORIGIN", "ALLOWED_HOSTS"].flatMap((name) => (env[name]?.trim() ? [[name, env[name]]] : [])),
  );
  const parsed = edgeEnvSchema.safeParse(present);
  if (!parsed.success) {
    return {
      settings: { trustProxyHops: 0, publicOrigin: null, allowedHosts: [] },
      problems: parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0]);
        return { variable, problem: issue.message, value: present[variable] };
      }),
    };
  }
  const publicOrigin = parsed.data.PUBLIC_ORIGIN === undefined ? null : originOf(parsed.data.PUBLIC_ORIGIN);
  const listed = parsed.data.ALLOWED_HOSTS?.split(",").map((entry) => entry.trim().toLowerCase()) ?? [];
  const named = [...(publicOrigin ? [new URL(publicOrigin).hostname] : []), ...listed];
  return {
    settings: {
      trustProxyHops: hopsFrom(parsed.data.TRUST_PROXY),
      publicOrigin,
      allowedHosts: named.length > 0 ? [...new Set(named)] : null,
    },
    problems: [],
  };
}

function listHeader(headers: HeaderReader, name: string): string[] {
  return (headers.get(name) ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

/**
 * The client's address, or null when Gatehouse cannot know it. Next does not hand route handlers the socket's
 * address, and it keeps an X-Forwarded-For the client sent, so the header is read only with TRUST_PROXY: each
 * trusted proxy appends the address it saw, so the entry TRUST_PROXY places from the right is the one the
 * outermost trusted proxy saw. Entries further left were written by the client and are never used, so rotating
 * them does not dodge a per-address limit.
 */
export function clientAddress(headers: HeaderReader, settings: EdgeSettings): string | null {
  if (settings.trustProxyHops === 0) return null;
  const chain = listHeader(headers, "x-forwarded-for");
  const entry = chain[Math.max(0, chain.length - settings.trustProxyHops)];
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
  if (settings.trustProxyHops === 0) return false;
  return listHeader(headers, "x-forwarded-proto")[0]?.toLowerCase() === "https";
}

/** The host name the request was sent to: the Host header, or with TRUST_PROXY the proxy's X-Forwarded-Host. */
export function requestHost(headers: HeaderReader, settings: EdgeSettings): string | null {
  return (settings.trustProxyHops > 0 ? listHeader(headers, "x-forwarded-host")[0] : undefined) ?? headers.get("host");
}

/** The host name without its port, lower case ("[::1]" keeps its brackets); null when it is not one. */
function hostnameOf(host: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase() ?? null;
}

export function isLoopbackHostname(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname);
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
