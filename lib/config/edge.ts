// The request edge's settings: TRUST_PROXY, PUBLIC_ORIGIN and ALLOWED_HOSTS, read from the environment and
// validated (a bad one is a problem named at start, not a guess). What a request's headers may then be believed
// is decided per request in lib/auth/request.ts. No `server-only` and no store: proxy.ts reads these too.
import { z } from "zod";

import { isDemoMode } from "./mode";

type Env = Record<string, string | undefined>;

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
    .regex(
      /^(\d{1,2}|true|false)$/i,
      "must be 0 (no proxy), 1 (one reverse proxy in front), a number of proxies, true or false",
    )
    .optional(),
  PUBLIC_ORIGIN: z
    .string()
    .trim()
    .refine(
      (value) => originOf(value) !== null,
      "must be the portal's origin, such as https://portal.example.com (http or https, no path, query or credentials)",
    )
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
const HOST_ENTRY =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The origin of `value` when it is an http(s) origin and nothing more (no path, query or credentials), else null. */
export function originOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== ""))
    return null;
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
export const DEMO_EDGE_SETTINGS: EdgeSettings = Object.freeze({
  trustProxyHops: 0,
  publicOrigin: null,
  allowedHosts: [],
});

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

/** A loopback host name (lower case; "[::1]" with its brackets): always served, and fine over plain http. */
export function isLoopbackHostname(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "[::1]" ||
    /^127(?:\.\d{1,3}){3}$/.test(hostname)
  );
}
