// Parsing and validating the environment: pure (takes the env as an argument), so that tests can check every
// rule without starting a server. lib/config/index.ts reads process.env through it once.
import "server-only";

import { z } from "zod";

import { hasBrand } from "@/lib/brand";

import type { Area } from "@/lib/contract/areas";
import { parseHttpServerSettings, type HttpServerSettings } from "./http-server";
import { readKeyEncryptionKeys, type KeyEncryptionKeys } from "./kek";
import { DEFAULT_DEMO_DATA_DIR } from "./mode";
import { isSecretVariable, quoteValue } from "./variables";

export interface ReportsAreaConfig {
  /** Base URL without a trailing slash; its path prefix is kept (e.g. "https://api.example.com/seo"). */
  baseUrl: string;
  apiKey: string;
}

/**
 * Where the area B key goes. The upstream document says only "api_key" and leaves its place open.
 * - "query-and-form" (default): in the query string on GET, in the form body on POST — what the document implies.
 * - "query": in the query string on every request, POST included.
 * - "header": in the named request header (e.g. `header:X-Api-Key`).
 */
export type ItemsKeyLocation = { kind: "query-and-form" } | { kind: "query" } | { kind: "header"; name: string };

export interface ItemsAreaConfig {
  baseUrl: string;
  apiKey: string;
  keyLocation: ItemsKeyLocation;
}

/**
 * An area as the configuration has it: its key from the environment, or null when the key is kept in the portal
 * (the base URL is set, the key variable is not, and GATEHOUSE_KEK is: lib/upstream/keys picks the stored one).
 */
export type AreaSettings<T extends { apiKey: string }> = Omit<T, "apiKey"> & { apiKey: string | null };

/** How Gatehouse protects itself and the upstreams (lib/upstream/policy). Every number has a variable. */
export interface UpstreamPolicyConfig {
  /** UPSTREAM_RETRIES: retries of an idempotent GET after a connection error or 502/503/504; 0 = none. */
  retries: number;
  /** UPSTREAM_BREAKER_FAILURES: consecutive failed attempts that open an area's breaker; 0 = no breaker. */
  breakerFailures: number;
  /** UPSTREAM_BREAKER_OPEN_MS: how long an open breaker answers 503 before one trial request. */
  breakerOpenMs: number;
  /** UPSTREAM_CACHE_REPORTS_TTL_MS / UPSTREAM_CACHE_ITEMS_TTL_MS: how long a read stays fresh; 0 = no cache. */
  cacheTtlMs: Record<Area, number>;
  /** UPSTREAM_CACHE_MAX_ENTRIES and UPSTREAM_CACHE_MAX_MB: the cache's bounds (least recently used go first). */
  cacheMaxEntries: number;
  cacheMaxBytes: number;
}

/** The two upstream areas and how Gatehouse reaches them (lib/upstream). */
export interface UpstreamConfig {
  /** null: area A is not configured; its routes answer 503 area_not_configured. apiKey null: kept in the portal. */
  reports: AreaSettings<ReportsAreaConfig> | null;
  /** null: area B is not configured. */
  items: AreaSettings<ItemsAreaConfig> | null;
  /** GATEHOUSE_KEK and GATEHOUSE_KEK_PREVIOUS (./kek.ts): seal the keys kept in the portal. */
  keyEncryption: KeyEncryptionKeys;
  /** UPSTREAM_TIMEOUT_MS: time allowed for one upstream exchange. */
  timeoutMs: number;
  /** Retries, circuit breaker and cache (lib/upstream/policy). */
  policy: UpstreamPolicyConfig;
}

export interface EnvConfig {
  upstream: UpstreamConfig;
  /** SHUTDOWN_TIMEOUT_MS: on SIGTERM, how long requests in flight may take to finish before the process exits. */
  shutdownTimeoutMs: number;
  /** HTTP_*_TIMEOUT_MS: how long the HTTP server waits for a slow client (./http-server.ts). */
  httpServer: HttpServerSettings;
  /** Port of the embedded sandbox in demo mode. */
  sandboxPort: number;
  /** Demo mode: the folder that holds everything the demo writes (its store, secret and sandbox state). */
  demoDataDir: string;
  /** METRICS_TOKEN: the bearer token of monitoring systems (readiness detail, /metrics); null when unset. */
  metricsToken: string | null;
  /** REDIS_URL: what several instances share (limits, cache, breakers, jobs); null: this process alone. */
  redisUrl: string | null;
  /** INSTANCE_ID: the name of this instance in every log line and metric; null: hostname:pid. */
  instanceId: string | null;
}

/** A monitoring token shorter than this could be guessed. */
export const METRICS_TOKEN_MIN_LENGTH = 32;

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;
export const DEFAULT_UPSTREAM_POLICY: UpstreamPolicyConfig = {
  retries: 2,
  breakerFailures: 5,
  breakerOpenMs: 30_000,
  cacheTtlMs: { reports: 15_000, items: 60_000 },
  cacheMaxEntries: 1000,
  cacheMaxBytes: 32 * 1024 * 1024,
};
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export const DEFAULT_SANDBOX_PORT = 4010;

/**
 * One problem per variable (or, with an empty `variable`, about the whole configuration): what is wrong, in
 * words, and the value as given when it is not a secret. Printed as one line by formatProblem; never a key's, a
 * password's or DATABASE_URL's value.
 */
export interface ConfigProblem {
  variable: string;
  problem: string;
  /** The value as given, shown quoted before the problem; only for variables that are not secret. */
  value?: string;
}

/** `REPORTS_API_BASE_URL: "not-a-url" must be an absolute http:// or https:// URL` — one line, always. */
export function formatProblem({ variable, problem, value }: ConfigProblem): string {
  const shown = value === undefined || isSecretVariable(variable) ? "" : `${quoteValue(value)} `;
  // A problem of no single variable (no upstream configured at all) is its own sentence.
  const line = variable === "" ? problem : `${variable}: ${shown}${problem}`;
  return line.replace(/[\r\n]+/g, " ");
}

/** The problem when a configured start has no upstream: what to set, and how to try Gatehouse without. */
export const NO_UPSTREAM =
  "No upstream is configured: set REPORTS_API_BASE_URL and REPORTS_API_KEY (the reports API), ITEMS_API_BASE_URL and ITEMS_API_KEY (the item API), or all four; to try Gatehouse without them, run: npm run demo";

/** The lines printed when the start stops: a heading, then one line per problem. */
export function problemLines(problems: ConfigProblem[]): string[] {
  const count = problems.length === 1 ? "1 setting needs" : `${problems.length} settings need`;
  return [
    `Gatehouse cannot start: ${count} fixing (in the environment or .env.local):`,
    ...problems.map(formatProblem),
  ];
}

const CONFIG_ERROR: unique symbol = Symbol.for("gatehouse.ConfigError");

export class ConfigError extends Error {
  readonly [CONFIG_ERROR] = true;
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    super(problemLines(problems).join("\n"));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** A ConfigError of any copy of this module (lib/brand.ts). */
export function isConfigError(error: unknown): error is ConfigError {
  return hasBrand(error, CONFIG_ERROR);
}

// Zod messages here never echo the received value: for keys that would leak the secret into a start-up log.
const baseUrlSchema = z
  .string()
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an absolute http:// or https:// URL" });
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      ctx.addIssue({ code: "custom", message: "must start with http:// or https://" });
    } else if (url.username || url.password) {
      ctx.addIssue({
        code: "custom",
        message: "must not contain a user name or password; the key has its own variable",
      });
    } else if (url.search || url.hash) {
      ctx.addIssue({ code: "custom", message: "must not contain a query string or fragment" });
    }
  })
  // Keep the path prefix, drop a trailing slash: fixed operation paths are appended to it.
  .transform((value) => value.replace(/\/+$/, ""));

const apiKeySchema = z
  .string()
  .min(8, "is too short to be an API key (at least 8 characters)")
  .max(4096, "is too long (at most 4096 characters)")
  .regex(
    /^[\x21-\x7e]+$/,
    "must be printable ASCII without spaces or line breaks (check for a pasted newline or quotes)",
  );

const metricsTokenSchema = z
  .string()
  .min(
    METRICS_TOKEN_MIN_LENGTH,
    `is too short to be a secret token: at least ${METRICS_TOKEN_MIN_LENGTH} characters (openssl rand -base64 32)`,
  )
  .max(4096, "is too long (at most 4096 characters)")
  .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces (check for a pasted newline or quotes)");

// The URL may carry a password: messages never quote it.
const redisUrlSchema = z.string().superRefine((value, ctx) => {
  if (!URL.canParse(value)) {
    ctx.addIssue({
      code: "custom",
      message:
        "must be a redis:// or rediss:// URL, e.g. redis://:password@redis.example.com:6379/0 (a password with @, : or / must be percent-encoded)",
    });
    return;
  }
  const url = new URL(value);
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    ctx.addIssue({ code: "custom", message: "must start with redis:// or rediss:// (TLS)" });
  } else if (url.hostname === "") {
    ctx.addIssue({ code: "custom", message: "names no host" });
  } else if (url.pathname !== "" && url.pathname !== "/" && !/^\/\d{1,2}$/.test(url.pathname)) {
    ctx.addIssue({ code: "custom", message: "may end only in a database number (/0 to /99)" });
  }
});

const instanceIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9._:-]{1,64}$/,
    "must be 1 to 64 letters, digits, dots, colons, dashes or underscores (e.g. web-1)",
  );

const timeoutSchema = z
  .string()
  .regex(/^\d+$/, "must be a whole number of milliseconds")
  .transform(Number)
  .pipe(z.number().min(100, "must be at least 100 ms").max(300_000, "must be at most 300000 ms (5 minutes)"));

/** A whole number within bounds, with a message that names the unit and the bounds. */
function wholeNumber(min: number, max: number, unit: string) {
  return z
    .string()
    .regex(/^\d+$/, `must be a whole number of ${unit}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min} ${unit}`).max(max, `must be at most ${max} ${unit}`));
}

const ONE_HOUR_MS = 3_600_000;

const policySchemas = {
  UPSTREAM_RETRIES: wholeNumber(0, 2, "retries"),
  UPSTREAM_BREAKER_FAILURES: wholeNumber(0, 1000, "failures (0 turns the breaker off)"),
  UPSTREAM_BREAKER_OPEN_MS: wholeNumber(1000, 600_000, "milliseconds"),
  UPSTREAM_CACHE_REPORTS_TTL_MS: wholeNumber(0, ONE_HOUR_MS, "milliseconds (0 turns the cache off)"),
  UPSTREAM_CACHE_ITEMS_TTL_MS: wholeNumber(0, ONE_HOUR_MS, "milliseconds (0 turns the cache off)"),
  UPSTREAM_CACHE_MAX_ENTRIES: wholeNumber(10, 1_000_000, "entries"),
  UPSTREAM_CACHE_MAX_MB: wholeNumber(1, 4096, "megabytes"),
  SHUTDOWN_TIMEOUT_MS: wholeNumber(0, 120_000, "milliseconds"),
} as const;

function readPolicy(
  env: Record<string, string | undefined>,
  problems: ConfigProblem[],
): { upstreamPolicy: UpstreamPolicyConfig; shutdownTimeoutMs: number } {
  const value = (name: keyof typeof policySchemas) => check(problems, name, policySchemas[name], read(env, name));
  const defaults = DEFAULT_UPSTREAM_POLICY;
  const maxMb = value("UPSTREAM_CACHE_MAX_MB");
  return {
    upstreamPolicy: {
      retries: value("UPSTREAM_RETRIES") ?? defaults.retries,
      breakerFailures: value("UPSTREAM_BREAKER_FAILURES") ?? defaults.breakerFailures,
      breakerOpenMs: value("UPSTREAM_BREAKER_OPEN_MS") ?? defaults.breakerOpenMs,
      cacheTtlMs: {
        reports: value("UPSTREAM_CACHE_REPORTS_TTL_MS") ?? defaults.cacheTtlMs.reports,
        items: value("UPSTREAM_CACHE_ITEMS_TTL_MS") ?? defaults.cacheTtlMs.items,
      },
      cacheMaxEntries: value("UPSTREAM_CACHE_MAX_ENTRIES") ?? defaults.cacheMaxEntries,
      cacheMaxBytes: maxMb === undefined ? defaults.cacheMaxBytes : maxMb * 1024 * 1024,
    },
    shutdownTimeoutMs: value("SHUTDOWN_TIMEOUT_MS") ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
  };
}

const portSchema = z
  .string()
  .regex(/^\d+$/, "must be a port number")
  .transform(Number)
  .pipe(z.number().max(65_535, "must be at most 65535"));

const keyLocationSchema = z.string().transform((value, ctx): ItemsKeyLocation => {
  if (value === "query-and-form") return { kind: "query-and-form" };
  if (value === "query") return { kind: "query" };
  const header = /^header:([A-Za-z0-9-]{1,64})$/.exec(value);
  if (header?.[1]) return { kind: "header", name: header[1] };
  ctx.addIssue({ code: "custom", message: 'must be "query-and-form" (default), "query" or "header:<Header-Name>"' });
  return z.NEVER;
});

/** Env values are strings; an empty one counts as unset (a blank line in .env.local). */
function read(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}

function check<T>(
  problems: ConfigProblem[],
  variable: string,
  schema: z.ZodType<T, string>,
  value: string | undefined,
): T | undefined {
  if (value === undefined) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  problems.push({
    variable,
    problem: result.error.issues[0]?.message ?? "is invalid",
    value: isSecretVariable(variable) ? undefined : value,
  });
  return undefined;
}

function readArea(
  env: Record<string, string | undefined>,
  problems: ConfigProblem[],
  urlVar: string,
  keyVar: string,
  keysInPortal: boolean,
): { baseUrl: string; apiKey: string | null } | null {
  const rawUrl = read(env, urlVar);
  const rawKey = read(env, keyVar);
  if (rawUrl === undefined && rawKey === undefined) return null;
  if (rawUrl === undefined) {
    problems.push({
      variable: urlVar,
      problem: `is missing while ${keyVar} is set; set both, or neither to leave this area out`,
    });
    return null;
  }
  if (rawKey === undefined && !keysInPortal) {
    problems.push({
      variable: keyVar,
      problem: `is missing while ${urlVar} is set; set both, neither to leave this area out, or set GATEHOUSE_KEK to keep the key in the portal (Upstream connections)`,
    });
    return null;
  }
  const baseUrl = check(problems, urlVar, baseUrlSchema, rawUrl);
  // No key variable: the key is the one saved in the portal (none yet: the area answers 503 until an admin sets it).
  const apiKey = rawKey === undefined ? null : check(problems, keyVar, apiKeySchema, rawKey);
  return baseUrl !== undefined && apiKey !== undefined ? { baseUrl, apiKey } : null;
}

/** Validates the environment, adding every problem found to `problems` (the start-up check collects them all). */
export function readEnv(env: Record<string, string | undefined>, problems: ConfigProblem[]): EnvConfig {
  const kek = readKeyEncryptionKeys(env);
  problems.push(...kek.problems);
  // A GATEHOUSE_KEK that is set but refused is its own one line: the areas are not also told to set it.
  const keysInPortal = kek.keys.current !== null || (env.GATEHOUSE_KEK ?? "").trim() !== "";
  const reports = readArea(env, problems, "REPORTS_API_BASE_URL", "REPORTS_API_KEY", keysInPortal);
  const itemsArea = readArea(env, problems, "ITEMS_API_BASE_URL", "ITEMS_API_KEY", keysInPortal);
  const keyLocation = check(problems, "ITEMS_API_KEY_LOCATION", keyLocationSchema, read(env, "ITEMS_API_KEY_LOCATION"));
  const upstreamTimeoutMs = check(problems, "UPSTREAM_TIMEOUT_MS", timeoutSchema, read(env, "UPSTREAM_TIMEOUT_MS"));
  const sandboxPort = check(problems, "SANDBOX_PORT", portSchema, read(env, "SANDBOX_PORT"));
  const { upstreamPolicy, shutdownTimeoutMs } = readPolicy(env, problems);
  const { settings: httpServer, problems: httpServerProblems } = parseHttpServerSettings(env);
  problems.push(...httpServerProblems);
  const metricsToken = check(problems, "METRICS_TOKEN", metricsTokenSchema, read(env, "METRICS_TOKEN"));
  const redisUrl = check(problems, "REDIS_URL", redisUrlSchema, read(env, "REDIS_URL"));
  const instanceId = check(problems, "INSTANCE_ID", instanceIdSchema, read(env, "INSTANCE_ID"));
  return {
    upstream: {
      reports,
      items: itemsArea && { ...itemsArea, keyLocation: keyLocation ?? { kind: "query-and-form" } },
      keyEncryption: kek.keys,
      timeoutMs: upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
      policy: upstreamPolicy,
    },
    shutdownTimeoutMs,
    httpServer,
    sandboxPort: sandboxPort ?? DEFAULT_SANDBOX_PORT,
    demoDataDir: read(env, "DEMO_DATA_DIR") ?? DEFAULT_DEMO_DATA_DIR,
    metricsToken: metricsToken ?? null,
    redisUrl: redisUrl ?? null,
    instanceId: instanceId ?? null,
  };
}

/** Validates the environment; throws ConfigError listing every problem at once. */
export function parseEnv(env: Record<string, string | undefined>): EnvConfig {
  const problems: ConfigProblem[] = [];
  const config = readEnv(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
