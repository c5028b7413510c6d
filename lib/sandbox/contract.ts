// The sandbox's public contract: demo keys, fixed codes, options and the control API's types. Internal modules
// import from here (not from index.ts) so that no import cycle reaches a value before it is initialised.

export const SANDBOX_KEYS = {
  reports: "sandbox-reports-key",
  reportsNext: "sandbox-reports-key-next", // a second key, to rotate to (the demo's Upstream connections page)
  items: "sandbox-items-key", // main seller
  itemsNext: "sandbox-items-key-next", // main seller too: a second key, to rotate to
  items2: "sandbox-items-key-2", // second seller
  itemsEmpty: "sandbox-items-key-empty", // a seller with no items
} as const;

/** Purchase codes of the main seller that the seed always contains. */
export const FIXED_PURCHASE_CODES = {
  active: "11111111-1111-4111-8111-111111111111", // support still running
  expired: "22222222-2222-4222-8222-222222222222", // support ended
  none: "33333333-3333-4333-8333-333333333333", // bought without support: no supported_until
  letters: "9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f", // support still running; hex letters, so its upper case differs
} as const;

/** Where the sandbox receives webhooks (lib/sandbox/receiver.ts): the demo's receiver on loopback. */
export const RECEIVER_PATH = "/__receiver";

/** Path prefixes of the two areas; a base URL is `url + prefix`. */
export const AREA_PREFIX = { reports: "/seo", items: "/market" } as const;

export type SellerProfile = "main" | "second" | "empty";

export interface SandboxOptions {
  port?: number; // default 4010; 0 = ephemeral
  host?: string; // default "127.0.0.1"
  dataDir?: string; // default "./data/sandbox"; the state file lives here
  reset?: boolean; // reseed instead of loading saved state
  control?: boolean; // enable /__sandbox (CLI: --control)
  extraKeys?: {
    // extra accepted keys, e.g. canary keys in tests
    reports?: string[];
    items?: Record<string, SellerProfile>;
  };
  quiet?: boolean; // no console output
  /** How many items the main seller has (default: the seeded count, 30). Generated deterministically. */
  mainSellerItems?: number;
}

export interface Sandbox {
  url: string; // "http://127.0.0.1:PORT"
  reportsBaseUrl: string; // url + "/seo"
  itemsBaseUrl: string; // url + "/market"
  receiverUrl: string; // url + "/__receiver": records the webhooks it is sent
  close(): Promise<void>; // closes the server AND destroys open sockets (hung/trickling ones too), flushes state
}

export type FaultKind = "latency" | "status" | "malformed" | "reset" | "hang" | "trickle";

export interface FaultSpec {
  /** Only requests with this method; any method when omitted. */
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";
  /** Exact pathname (e.g. "/seo/api/v1/reports"), or a prefix when it ends with "*" (e.g. "/market/*"). */
  path: string;
  kind: FaultKind;
  /** Delay before answering. The whole fault for kind "latency"; a delay before the fault for the others. */
  latencyMs?: number;
  /** kind "status": the status to answer (e.g. 503, 429). kind "malformed": overrides the default 200. */
  status?: number;
  /** kind "status": the body; a string is sent verbatim, any other value as JSON. */
  body?: unknown;
  /** kind "status": extra response headers, e.g. { "Retry-After": "2" }. */
  headers?: Record<string, string>;
  /** Apply to the next N matching requests, then remove; until cleared when omitted. */
  times?: number;
  /** kind "trickle": the body's pace (default 64 bytes per second). */
  bytesPerSecond?: number;
}

export interface LoggedRequest {
  method: string;
  /** Pathname without the query string, e.g. "/seo/api/v1/reports". */
  path: string;
  /** A repeated parameter gives an array of its values. */
  query: Record<string, string | string[]>;
  /** Lowercased names; Authorization included. */
  headers: Record<string, string>;
  /** The parsed application/x-www-form-urlencoded body, or null when there was none. */
  form: Record<string, string | string[]> | null;
  /** The upstream key it carried (area A's Bearer token, area B's api_key), or null: which key each request used. */
  key: string | null;
  /** ISO 8601 time the request was received. */
  at: string;
}
