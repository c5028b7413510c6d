// Which store DATABASE_URL names: a SQLite file (a plain path or a file: URL; ./data/gatehouse.db when unset) or
// PostgreSQL (a postgres:// URL). Anything else is refused, so that a typo (`postgres//…`, a missing colon) never
// becomes a SQLite file with a fresh first admin. Demo mode ignores DATABASE_URL: its store lives under
// DEMO_DATA_DIR. Pure, no `server-only`: lib/db, the start-up check and the users CLI read it.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { demoDataDir, isDemoMode } from "./mode";

type Env = Record<string, string | undefined>;

export const DEFAULT_DATABASE_PATH = "./data/gatehouse.db";
export const DEMO_DATABASE_FILE = "gatehouse.db";

export type DatabaseTarget = { dialect: "sqlite"; path: string } | { dialect: "postgres"; connectionString: string };

/** DATABASE_URL refused; the message names the variable and never quotes it (it may hold a password). */
export class DatabaseUrlError extends Error {
  override name = "DatabaseUrlError";
}

const FORM = "use a file path (./data/gatehouse.db), a file: URL, or postgres://user:password@host:5432/database";

/** DATABASE_URL: absent → ./data/gatehouse.db; a path or file: URL → SQLite; postgres(ql):// → PostgreSQL. */
export function readDatabaseUrl(
  url: string | undefined,
  cwd = process.cwd(),
): { target: DatabaseTarget } | { problem: string } {
  const value = url?.trim() ?? "";
  if (value === "") return { target: { dialect: "sqlite", path: path.resolve(cwd, DEFAULT_DATABASE_PATH) } };
  if (/^postgres(ql)?:\/\//i.test(value)) {
    // A fragment never belongs to a connection URL: it is what a "#" in an unencoded password turns into.
    if (!URL.canParse(value) || new URL(value).hash !== "") {
      return {
        problem:
          "is not a valid postgres:// URL (a password with @, :, / or # must be percent-encoded, e.g. %40 for @)",
      };
    }
    return { target: { dialect: "postgres", connectionString: value } };
  }
  if (/^postgres/i.test(value)) {
    return {
      problem:
        "looks like a PostgreSQL URL with a broken scheme; write it as postgres://user:password@host:5432/database",
    };
  }
  if (value === ":memory:") return { target: { dialect: "sqlite", path: ":memory:" } };
  if (/^file:/i.test(value)) {
    // file:///abs/path is a real URL; file:./rel and file:/abs are the common shorthand.
    const filePath = value.startsWith("file://") ? fileURLToPath(value) : value.slice("file:".length);
    if (filePath === "") return { problem: "the file: URL names no file" };
    return { target: { dialect: "sqlite", path: path.resolve(cwd, filePath) } };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  if (scheme) return { problem: `unsupported scheme "${scheme}:"; ${FORM}` };
  // A path holds neither a user (@) nor a URL's "//host" part: such a value is a URL gone wrong, not a file name.
  if (value.includes("@") || /^[a-z][a-z0-9+.-]*\/\//i.test(value))
    return { problem: `is neither a postgres:// URL nor a file path; ${FORM}` };
  return { target: { dialect: "sqlite", path: path.resolve(cwd, value) } };
}

/** readDatabaseUrl, throwing DatabaseUrlError ("DATABASE_URL: …") when the value is refused. */
export function parseDatabaseUrl(url: string | undefined, cwd = process.cwd()): DatabaseTarget {
  const read = readDatabaseUrl(url, cwd);
  if ("problem" in read) throw new DatabaseUrlError(`DATABASE_URL: ${read.problem}`);
  return read.target;
}

/** A configured deployment's store: DATABASE_URL, whatever the mode (the users CLI never opens the demo's). */
export function configuredStoreTarget(env: Env = process.env, cwd = process.cwd()): DatabaseTarget {
  return parseDatabaseUrl(env.DATABASE_URL, cwd);
}

/** The store this process uses: DATABASE_URL, or in demo mode <DEMO_DATA_DIR>/gatehouse.db whatever it says. */
export function storeTarget(env: Env = process.env, cwd = process.cwd()): DatabaseTarget {
  if (isDemoMode(env)) return { dialect: "sqlite", path: path.join(demoDataDir(env, cwd), DEMO_DATABASE_FILE) };
  return configuredStoreTarget(env, cwd);
}

/** `text` (an error message of the store's driver) without DATABASE_URL's password, which it may quote. */
export function withoutDatabasePassword(text: string, env: Env = process.env): string {
  let password = "";
  try {
    password = decodeURIComponent(new URL(env.DATABASE_URL ?? "").password);
  } catch {
    // Not a URL (a file path): it holds no password.
  }
  return password === "" ? text : text.split(password).join("[REDACTED]");
}

/** Where the store is, for people: the file, or PostgreSQL's host and database (never the password). */
export function describeTarget(target: DatabaseTarget, cwd = process.cwd()): string {
  if (target.dialect === "sqlite") {
    const relative = path.relative(cwd, target.path);
    return target.path === ":memory:"
      ? "memory"
      : relative && !relative.startsWith("..")
        ? `./${relative}`
        : target.path;
  }
  try {
    const url = new URL(target.connectionString);
    return `PostgreSQL ${url.host || "(local socket)"}${url.pathname}`;
  } catch {
    return "PostgreSQL";
  }
}

/**
 * A missing folder of the SQLite store `file` is created 0700: the first thing that writes there (the instance
 * marker, lib/cluster/startup.ts) need not come from opening the store (lib/db).
 */
export function makeStoreFolder(file: string): void {
  const folder = path.dirname(file);
  if (!existsSync(/*turbopackIgnore: true*/ folder))
    mkdirSync(/*turbopackIgnore: true*/ folder, { recursive: true, mode: 0o700 });
}
