// Sessions and the server's own secrets: SESSION_SECRET and the sessions' lifetimes, the first admin
// (ADMIN_EMAIL, ADMIN_PASSWORD) and the data key (PURCHASE_CODE_HASH_KEY). Read by ./server.ts with the other
// rooms' settings; a secret's value never appears in a message.
import "server-only";

import { hkdfSync, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

import { z } from "zod";

import { emailSchema } from "@/lib/contract/accounts";
import { passwordProblem, passwordSchema } from "@/lib/contract/password";

import { ConfigError, type ConfigProblem } from "./env";

export const SESSION_SECRET_MIN_LENGTH = 32;
export const DEFAULT_SESSION_ABSOLUTE_TIMEOUT_HOURS = 12;
export const DEFAULT_SESSION_IDLE_TIMEOUT_MINUTES = 120;
export const DEMO_SESSION_SECRET_FILE = "session-secret";

export interface SessionConfig {
  /** Newest first: the first seals new cookies, all of them open existing ones. */
  secrets: string[];
  secretSource: "env" | "demo-file";
  absoluteTimeoutMs: number;
  idleTimeoutMs: number;
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

/** The variables of this room, in the order their problems are listed. */
export const sessionVariables = {
  SESSION_SECRET: z.string().optional(),
  SESSION_ABSOLUTE_TIMEOUT_HOURS: hours(24 * 30).default(DEFAULT_SESSION_ABSOLUTE_TIMEOUT_HOURS),
  SESSION_IDLE_TIMEOUT_MINUTES: minutes(60 * 24 * 30).default(DEFAULT_SESSION_IDLE_TIMEOUT_MINUTES),
  ADMIN_EMAIL: emailSchema.optional(),
  ADMIN_PASSWORD: passwordSchema.optional(),
  PURCHASE_CODE_HASH_KEY: z
    .string()
    .min(SESSION_SECRET_MIN_LENGTH, `must be at least ${SESSION_SECRET_MIN_LENGTH} characters`)
    .optional(),
};

type SessionVariables = z.infer<z.ZodObject<typeof sessionVariables>>;

/** SESSION_SECRET's entries: several, comma-separated, newest first (rotation). */
export function sessionSecretEntries(value: string): string[] {
  return value.split(",").map((entry) => entry.trim());
}

const GENERATE = "generate one with: openssl rand -base64 32";

/**
 * The session secrets from SESSION_SECRET, or in demo mode the one kept in `<dataDir>/session-secret`. Checked
 * even when other variables are wrong, so that one start names every problem.
 */
export function readSessionSecrets(
  value: string | undefined,
  { demoMode, dataDir }: { demoMode: boolean; dataDir: string },
  problems: ConfigProblem[],
): Pick<SessionConfig, "secrets" | "secretSource"> {
  if (value !== undefined) {
    const entries = sessionSecretEntries(value);
    entries.forEach((secret, i) => {
      const which = entries.length > 1 ? `entry ${i + 1} of ${entries.length}` : "the secret";
      if (secret.length < SESSION_SECRET_MIN_LENGTH) {
        problems.push({
          variable: "SESSION_SECRET",
          problem: `${which} has ${secret.length} characters; each secret needs at least ${SESSION_SECRET_MIN_LENGTH} (${GENERATE})`,
        });
      }
    });
    return { secrets: [...new Set(entries)], secretSource: "env" };
  }
  if (demoMode) return { secrets: [demoSessionSecret(dataDir)], secretSource: "demo-file" };
  problems.push({
    variable: "SESSION_SECRET",
    problem: `required outside demo mode: at least ${SESSION_SECRET_MIN_LENGTH} random characters (${GENERATE})`,
  });
  return { secrets: [], secretSource: "env" };
}

/** The sessions' lifetimes; an idle timeout longer than the absolute one is a problem. */
export function sessionLifetimes(
  vars: SessionVariables,
  problems: ConfigProblem[],
): Pick<SessionConfig, "absoluteTimeoutMs" | "idleTimeoutMs"> {
  const absoluteTimeoutMs = vars.SESSION_ABSOLUTE_TIMEOUT_HOURS * 3_600_000;
  const idleTimeoutMs = vars.SESSION_IDLE_TIMEOUT_MINUTES * 60_000;
  if (idleTimeoutMs > absoluteTimeoutMs) {
    problems.push({
      variable: "SESSION_IDLE_TIMEOUT_MINUTES",
      problem: "longer than SESSION_ABSOLUTE_TIMEOUT_HOURS, so it would never apply; shorten it or leave it unset",
    });
  }
  return { absoluteTimeoutMs, idleTimeoutMs };
}

/** From ADMIN_EMAIL and ADMIN_PASSWORD, which create the first admin together. */
export function readFirstAdmin(
  vars: SessionVariables,
  problems: ConfigProblem[],
): { email: string; password: string } | null {
  if (vars.ADMIN_EMAIL !== undefined && vars.ADMIN_PASSWORD !== undefined) {
    // The same rule as every other password, now that the account's email is known.
    const problem = passwordProblem(vars.ADMIN_PASSWORD, { email: vars.ADMIN_EMAIL });
    if (problem) problems.push({ variable: "ADMIN_PASSWORD", problem: problem.replace(/^password /, "") });
    return { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD };
  }
  if (vars.ADMIN_EMAIL !== undefined || vars.ADMIN_PASSWORD !== undefined) {
    problems.push({
      variable: vars.ADMIN_EMAIL === undefined ? "ADMIN_EMAIL" : "ADMIN_PASSWORD",
      problem: "missing: ADMIN_EMAIL and ADMIN_PASSWORD create the first admin together",
    });
  }
  return null;
}

/**
 * PURCHASE_CODE_HASH_KEY, or without it a key derived (HKDF-SHA256) from the newest session secret; it then
 * changes when that secret rotates, and old audit hashes no longer match new ones.
 */
export function readDataKey(
  vars: SessionVariables,
  newestSecret: string,
): { dataKey: string; dataKeySource: "env" | "derived" } {
  return {
    dataKey:
      vars.PURCHASE_CODE_HASH_KEY ??
      Buffer.from(hkdfSync("sha256", newestSecret, "", "gatehouse purchase-code hash key", 32)).toString("hex"),
    dataKeySource: vars.PURCHASE_CODE_HASH_KEY === undefined ? "derived" : "env",
  };
}

/** The demo session secret: read from `<dataDir>/session-secret`, created (mode 0600) on first start. */
function demoSessionSecret(dataDir: string): string {
  const file = path.resolve(dataDir, DEMO_SESSION_SECRET_FILE);
  const secret = keptDemoSecret(file);
  if (secret.length < SESSION_SECRET_MIN_LENGTH) {
    throw new ConfigError([
      {
        variable: "SESSION_SECRET",
        problem: `not set, and the demo secret kept in ${file} is shorter than ${SESSION_SECRET_MIN_LENGTH} characters; delete that file to generate a new one`,
      },
    ]);
  }
  return secret;
}

/** One of the demo's own secrets (32 random bytes, base64url): read from `file`, created (mode 0600) on first start. */
export function keptDemoSecret(file: string): string {
  // The demo's folder is private: it holds its secrets and the demo's store.
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
  return readFileSync(file, "utf8").trim();
}
