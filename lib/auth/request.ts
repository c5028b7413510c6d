// What Gatehouse may believe about a request's edge: the client's address, whether it came over https, and the
// portal's own origin. Behind a reverse proxy these come from X-Forwarded-* headers, which a client can also
// write; they are believed only when the operator says a proxy sets them (TRUST_PROXY). No `server-only` and no
// store: proxy.ts uses this too.
import { z } from "zod";

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
}

export interface EdgeProblem {
  variable: string;
  problem: string;
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
});

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

/** Reads TRUST_PROXY and PUBLIC_ORIGIN. An empty variable counts as unset; a bad one is a problem, not a guess. */
export function parseEdgeSettings(env: Env): { settings: EdgeSettings; problems: EdgeProblem[] } {
  const present = Object.fromEntries(
    ["TRUST_PROXY", "PUBLIC_ORIGIN"].flatMap((name) => (env[name]?.trim() ? [[name, env[name]]] : [])),
  );
  const parsed = edgeEnvSchema.safeParse(present);
  if (!parsed.success) {
    return {
      settings: { trustProxyHops: 0, publicOrigin: null },
      problems: parsed.error.issues.map((issue) => ({ variable: String(issue.path[0]), problem: issue.message })),
    };
  }
  return {
    settings: {
      trustProxyHops: hopsFrom(parsed.data.TRUST_PROXY),
      publicOrigin: parsed.data.PUBLIC_ORIGIN === undefined ? null : originOf(parsed.data.PUBLIC_ORIGIN),
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

/**
 * The origin browsers use for the portal: PUBLIC_ORIGIN, or the Host header (X-Forwarded-Host with TRUST_PROXY)
 * with the protocol from isHttps. A page on another site cannot choose the Host its victim's browser sends.
 */
export function portalOrigin(headers: HeaderReader, settings: EdgeSettings): string | null {
  if (settings.publicOrigin) return settings.publicOrigin;
  const host = (settings.trustProxyHops > 0 ? listHeader(headers, "x-forwarded-host")[0] : undefined) ?? headers.get("host");
  if (!host) return null;
  return originOf(`${isHttps(headers, settings) ? "https" : "http"}://${host}`);
}
