// Accounts configuration: the store, session secrets and lifetimes, the first admin, the purchase-code hash
// key, the request edge (TRUST_PROXY, PUBLIC_ORIGIN), the purchase-validation rate limits and the report history's
// retention and schedule budget. Read from the environment when asked (never at import), validated with zod, and reported by variable
// name — a secret's value never appears in a message.
import "server-only";

import { hkdfSync, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

import { z } from "zod";

import { emailSchema } from "@/lib/contract/accounts";
import { passwordProblem, passwordSchema } from "@/lib/contract/password";
import { DEFAULT_PURCHASE_CODE_FORMAT, CODE_FORMATS, type PurchaseCodeFormat } from "@/lib/contract/values";

import { DEMO_EDGE_SETTINGS, parseEdgeSettings, type EdgeSettings } from "./edge";
import { ConfigError, type ConfigProblem } from "./env";
import { demoDataDir } from "./mode";
import { CONFIGURED_ONLY, isSecretVariable } from "./variables";

type Env = Record<string, string | undefined>;

export const SESSION_SECRET_MIN_LENGTH = 32;
export const DEFAULT_SESSION_ABSOLUTE_TIMEOUT_HOURS = 12;
export const DEFAULT_SESSION_IDLE_TIMEOUT_MINUTES = 120;
export const DEMO_SESSION_SECRET_FILE = "session-secret";

/**
 * A ConfigError (same message format, same handling at start-up: startGatewayOrExit prints it and exits) for
 * the accounts variables.
 */
export class AuthConfigError extends ConfigError {
  constructor(problems: ConfigProblem[]) {
    super(problems);
    this.name = "AuthConfigError";
  }
}

export interface AuthConfig {
  /** Newest first: the first seals new cookies, all of them open existing ones. */
  sessionSecrets: string[];
  sessionSecretSource: "env" | "demo-file";
  sessionAbsoluteTimeoutMs: number;
  sessionIdleTimeoutMs: number;
  /** From ADMIN_EMAIL and ADMIN_PASSWORD; creates the first admin when the store has no user yet. */
  firstAdmin: { email: string; password: string } | null;
  /**
   * The data key (PURCHASE_CODE_HASH_KEY, or derived from the newest SESSION_SECRET when unset): it keys the
   * purchase codes' hashes and upstream keys' fingerprints, and each seal of data at rest derives its own key from it
   * (lib/seal.ts: bulk jobs' codes, webhook signing secrets, report share passwords).
   */
  dataKey: string;
  /** Whether the data key was set ("env") or derived from SESSION_SECRET, which then rotates it too. */
  dataKeySource: "env" | "derived";
  /** TRUST_PROXY, PUBLIC_ORIGIN and ALLOWED_HOSTS (./edge.ts). */
  edge: EdgeSettings;
  /** Purchase validations allowed per minute (PURCHASE_RATE_LIMIT_PER_USER, PURCHASE_RATE_LIMIT_PER_IP). */
  purchaseRateLimits: PurchaseRateLimits;
  /** Codes a user may send to bulk checks per hour (PURCHASE_BULK_LIMIT_PER_HOUR), apart from the per-minute limits. */
  purchaseBulkLimitPerHour: number;
  /** How strictly purchase codes are read (PURCHASE_CODE_FORMAT): auto, uuid or exact. */
  purchaseCodeFormat: PurchaseCodeFormat;
  /** Reports over time (lib/reports): how long results are kept, and what a scheduled run may spend. */
  reportHistory: ReportHistorySettings;
  /** Requests an account's API tokens may make per minute, all of them together (TOKEN_RATE_LIMIT_PER_MINUTE). */
  tokenRateLimitPerMinute: number;
  /** WEBHOOK_ALLOW_PRIVATE=1: webhooks may go to http:// URLs and private addresses (development and tests only). */
  webhookAllowPrivate: boolean;
}

export interface ReportHistorySettings {
  /** Days a recorded result is kept (REPORT_HISTORY_RETENTION_DAYS). */
  retentionDays: number;
  /** The reports API's rate budget, in calls a minute (REPORTS_API_CALLS_PER_MINUTE): the document states none. */
  callsPerMinute: number;
  /** The share of that budget a scheduled run may spend (REPORT_SCHEDULE_MAX_SHARE, 0–1). */
  scheduleMaxShare: number;
}

export const DEFAULT_REPORT_HISTORY: Readonly<ReportHistorySettings> = Object.freeze({
  retentionDays: 400,
  callsPerMinute: 60,
  scheduleMaxShare: 0.5,
});

export const DEFAULT_TOKEN_RATE_LIMIT_PER_MINUTE = 600;

export const DEFAULT_PURCHASE_BULK_LIMIT_PER_HOUR = 1000;

/** Purchase validations allowed per minute, per user and per client address. */
export interface PurchaseRateLimits {
  perUser: number;
  perIp: number;
}

export const DEFAULT_PURCHASE_RATE_LIMITS: Readonly<PurchaseRateLimits> = Object.freeze({ perUser: 30, perIp: 120 });

export interface LoadAuthConfigOptions {
  env?: Env;
  /**
   * Demo mode ignores a configured deployment's settings (its secrets, first admin, origin and proxy): the session
   * secret is generated once and kept in `<dataDir>/session-secret`.
   */
  demoMode: boolean;
  /** Demo mode's folder (default: DEMO_DATA_DIR, ./data/demo). */
  dataDir?: string;
}

const hours = (max: number) =>
  z.coerce
    .number({ error: "must be a number of hours" })
    .positive("must be more than 0")
    .max(max, `must be at most ${max}`);
const minutes = (max: number) =>
  z.coerce
    .number({ error: "must be a number of minutes" })
    .positive("must be more than 0")
    .max(max, `must be at most ${max}`);

const perMinute = z.coerce
  .number({ error: "must be a number of requests per minute" })
  .int("must be a whole number of requests per minute")
  .min(1, "must be at least 1")
  .max(100_000, "must be at most 100000");

const envSchema = z.object({
  SESSION_SECRET: z.string().optional(),
  SESSION_ABSOLUTE_TIMEOUT_HOURS: hours(24 * 30).default(DEFAULT_SESSION_ABSOLUTE_TIMEOUT_HOURS),
  SESSION_IDLE_TIMEOUT_MINUTES: minutes(60 * 24 * 30).default(DEFAULT_SESSION_IDLE_TIMEOUT_MINUTES),
  ADMIN_EMAIL: emailSchema.optional(),
  ADMIN_PASSWORD: passwordSchema.optional(),
  PURCHASE_CODE_HASH_KEY: z
    .string()
    .min(SESSION_SECRET_MIN_LENGTH, `must be at least ${SESSION_SECRET_MIN_LENGTH} characters`)
    .optional(),
  PURCHASE_RATE_LIMIT_PER_USER: perMinute.default(DEFAULT_PURCHASE_RATE_LIMITS.perUser),
  PURCHASE_RATE_LIMIT_PER_IP: perMinute.default(DEFAULT_PURCHASE_RATE_LIMITS.perIp),
  PURCHASE_BULK_LIMIT_PER_HOUR: z.coerce
    .number({ error: "must be a number of codes per hour" })
    .int("must be a whole number of codes per hour")
    .min(1, "must be at least 1")
    .max(1_000_000, "must be at most 1000000")
    .default(DEFAULT_PURCHASE_BULK_LIMIT_PER_HOUR),
  PURCHASE_CODE_FORMAT: z
    .enum(CODE_FORMATS, { error: `must be one of: ${CODE_FORMATS.join(", ")}` })
    .default(DEFAULT_PURCHASE_CODE_FORMAT),
  REPORT_HISTORY_RETENTION_DAYS: z.coerce
    .number({ error: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, "must be at least 1")
    .max(3650, "must be at most 3650")
    .default(DEFAULT_REPORT_HISTORY.retentionDays),
  REPORTS_API_CALLS_PER_MINUTE: z.coerce
    .number({ error: "must be a number of calls per minute" })
    .int("must be a whole number of calls per minute")
    .min(1, "must be at least 1")
    .max(100_000, "must be at most 100000")
    .default(DEFAULT_REPORT_HISTORY.callsPerMinute),
  REPORT_SCHEDULE_MAX_SHARE: z.coerce
    .number({ error: "must be a share between 0 and 1, e.g. 0.5" })
    .gt(0, "must be more than 0")
    .max(1, "must be at most 1 (the whole budget)")
    .default(DEFAULT_REPORT_HISTORY.scheduleMaxShare),
  TOKEN_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ error: "must be a number of requests per minute" })
    .int("must be a whole number of requests per minute")
    .min(1, "must be at least 1")
    .max(100_000, "must be at most 100000")
    .default(DEFAULT_TOKEN_RATE_LIMIT_PER_MINUTE),
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(["0", "1"], { error: "must be 1 (allow http and private addresses, for development) or 0" })
    .default("0"),
});

/** The environment without the settings only a configured deployment reads (the demo keeps its own). */
function withoutConfiguredSettings(env: Env): Env {
  const ignored = new Set<string>(CONFIGURED_ONLY);
  return Object.fromEntries(Object.entries(env).filter(([name]) => !ignored.has(name)));
}

// An empty variable (`FOO=` in a .env file) means "not set".
function withoutEmpty(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
}

/** SESSION_SECRET's entries: several, comma-separated, newest first (rotation). */
export function sessionSecretEntries(value: string): string[] {
  return value.split(",").map((entry) => entry.trim());
}

/** Reads and validates the accounts configuration. Throws AuthConfigError listing every problem at once. */
export function loadAuthConfig({
  env: given = process.env,
  demoMode,
  dataDir = demoDataDir(given),
}: LoadAuthConfigOptions): AuthConfig {
  const env = demoMode ? withoutConfiguredSettings(given) : given;
  const present = withoutEmpty(env);
  const parsed = envSchema.safeParse(present);
  const edge = demoMode ? { settings: DEMO_EDGE_SETTINGS, problems: [] } : parseEdgeSettings(env);
  const problems: ConfigProblem[] = [...edge.problems];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // The field schemas shared with the users repository say "email must …" / "password must …".
      const problem = issue.message.replace(/^(email|password) /, "");
      const variable = String(issue.path[0] ?? "environment");
      problems.push({ variable, problem, value: isSecretVariable(variable) ? undefined : present[variable] });
    }
  }

  // Checked even when other variables are wrong, so that one start names every problem.
  const generate = "generate one with: openssl rand -base64 32";
  let sessionSecrets: string[] = [];
  let sessionSecretSource: AuthConfig["sessionSecretSource"] = "env";
  if (present.SESSION_SECRET !== undefined) {
    const entries = sessionSecretEntries(present.SESSION_SECRET);
    entries.forEach((secret, i) => {
      const which = entries.length > 1 ? `entry ${i + 1} of ${entries.length}` : "the secret";
      if (secret.length < SESSION_SECRET_MIN_LENGTH) {
        problems.push({
          variable: "SESSION_SECRET",
          problem: `${which} has ${secret.length} characters; each secret needs at least ${SESSION_SECRET_MIN_LENGTH} (${generate})`,
        });
      }
    });
    sessionSecrets = [...new Set(entries)];
  } else if (demoMode) {
    sessionSecrets = [demoSessionSecret(dataDir)];
    sessionSecretSource = "demo-file";
  } else {
    problems.push({
      variable: "SESSION_SECRET",
      problem: `required outside demo mode: at least ${SESSION_SECRET_MIN_LENGTH} random characters (${generate})`,
    });
  }

  if (!parsed.success) throw new AuthConfigError(problems);
  const vars = parsed.data;

  const sessionAbsoluteTimeoutMs = vars.SESSION_ABSOLUTE_TIMEOUT_HOURS * 3_600_000;
  const sessionIdleTimeoutMs = vars.SESSION_IDLE_TIMEOUT_MINUTES * 60_000;
  if (sessionIdleTimeoutMs > sessionAbsoluteTimeoutMs) {
    problems.push({
      variable: "SESSION_IDLE_TIMEOUT_MINUTES",
      problem: "longer than SESSION_ABSOLUTE_TIMEOUT_HOURS, so it would never apply; shorten it or leave it unset",
    });
  }

  let firstAdmin: AuthConfig["firstAdmin"] = null;
  if (vars.ADMIN_EMAIL !== undefined && vars.ADMIN_PASSWORD !== undefined) {
    firstAdmin = { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD };
    // The same rule as every other password, now that the account's email is known.
    const problem = passwordProblem(vars.ADMIN_PASSWORD, { email: vars.ADMIN_EMAIL });
    if (problem) problems.push({ variable: "ADMIN_PASSWORD", problem: problem.replace(/^password /, "") });
  } else if (vars.ADMIN_EMAIL !== undefined || vars.ADMIN_PASSWORD !== undefined) {
    problems.push({
      variable: vars.ADMIN_EMAIL === undefined ? "ADMIN_EMAIL" : "ADMIN_PASSWORD",
      problem: "missing: ADMIN_EMAIL and ADMIN_PASSWORD create the first admin together",
    });
  }

  if (problems.length > 0) throw new AuthConfigError(problems);

  const newestSecret = sessionSecrets[0] ?? "";
  return {
    sessionSecrets,
    sessionSecretSource,
    sessionAbsoluteTimeoutMs,
    sessionIdleTimeoutMs,
    firstAdmin,
    // Without its own key, the purchase-code hash key is derived (HKDF-SHA256) from the newest session secret;
    // it then changes when that secret rotates, and old audit hashes no longer match new ones.
    dataKey:
      vars.PURCHASE_CODE_HASH_KEY ??
      Buffer.from(hkdfSync("sha256", newestSecret, "", "gatehouse purchase-code hash key", 32)).toString("hex"),
    dataKeySource: vars.PURCHASE_CODE_HASH_KEY === undefined ? "derived" : "env",
    edge: edge.settings,
    purchaseRateLimits: { perUser: vars.PURCHASE_RATE_LIMIT_PER_USER, perIp: vars.PURCHASE_RATE_LIMIT_PER_IP },
    purchaseBulkLimitPerHour: vars.PURCHASE_BULK_LIMIT_PER_HOUR,
    purchaseCodeFormat: vars.PURCHASE_CODE_FORMAT,
    reportHistory: {
      retentionDays: vars.REPORT_HISTORY_RETENTION_DAYS,
      callsPerMinute: vars.REPORTS_API_CALLS_PER_MINUTE,
      scheduleMaxShare: vars.REPORT_SCHEDULE_MAX_SHARE,
    },
    tokenRateLimitPerMinute: vars.TOKEN_RATE_LIMIT_PER_MINUTE,
    webhookAllowPrivate: vars.WEBHOOK_ALLOW_PRIVATE === "1",
  };
}

/** The demo session secret: read from `<dataDir>/session-secret`, created (mode 0600) on first start. */
function demoSessionSecret(dataDir: string): string {
  const file = path.resolve(dataDir, DEMO_SESSION_SECRET_FILE);
  // The demo's folder is private: it holds this secret and the demo's store.
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written aside, then linked into place: link() fails when the file exists, so two processes starting
  // together both end up with the first one's secret, and neither can read a half-written file.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, `${randomBytes(32).toString("base64url")}\n`, { flag: "wx", mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(draft);
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < SESSION_SECRET_MIN_LENGTH) {
    throw new AuthConfigError([
      {
        variable: "SESSION_SECRET",
        problem: `not set, and the demo secret kept in ${file} is shorter than ${SESSION_SECRET_MIN_LENGTH} characters; delete that file to generate a new one`,
      },
    ]);
  }
  return secret;
}

const cache = new Map<boolean, AuthConfig>();

/** loadAuthConfig from process.env, once per process (per mode). */
export function getAuthConfig({ demoMode }: { demoMode: boolean }): AuthConfig {
  let config = cache.get(demoMode);
  if (!config) {
    config = loadAuthConfig({ demoMode });
    cache.set(demoMode, config);
  }
  return config;
}
