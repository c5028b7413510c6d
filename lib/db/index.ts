// The store: one Kysely handle over SQLite (default, embedded file) or PostgreSQL (several portal instances).
// Migrations run when the store opens, so a fresh deployment needs no separate step.
import "server-only";

import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import SqliteDatabase from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect } from "kysely";
import { Pool } from "pg";

import { readStoreConfig } from "@/lib/config/auth";

import { migrations, type Dialect } from "./migrations";
import type { Database } from "./schema";

export type { Database } from "./schema";
export type { Dialect } from "./migrations";
export type Db = Kysely<Database>;

export const DEFAULT_DATABASE_PATH = "./data/gatehouse.db";

export type DatabaseTarget = { dialect: "sqlite"; path: string } | { dialect: "postgres"; connectionString: string };

export class DatabaseUrlError extends Error {
  override name = "DatabaseUrlError";
}

/** DATABASE_URL: absent → ./data/gatehouse.db; a path or file: URL → SQLite; postgres(ql):// → PostgreSQL. */
export function parseDatabaseUrl(url: string | undefined, cwd = process.cwd()): DatabaseTarget {
  const value = url?.trim() ?? "";
  if (value === "") return { dialect: "sqlite", path: path.resolve(cwd, DEFAULT_DATABASE_PATH) };
  if (/^postgres(ql)?:\/\//i.test(value)) return { dialect: "postgres", connectionString: value };
  if (value === ":memory:") return { dialect: "sqlite", path: ":memory:" };
  if (/^file:/i.test(value)) {
    // file:///abs/path is a real URL; file:./rel and file:/abs are the common shorthand.
    const filePath = value.startsWith("file://") ? fileURLToPath(value) : value.slice("file:".length);
    if (filePath === "") throw new DatabaseUrlError("DATABASE_URL: the file: URL names no file");
    return { dialect: "sqlite", path: path.resolve(cwd, filePath) };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  if (scheme) {
    throw new DatabaseUrlError(
      `DATABASE_URL: unsupported scheme "${scheme}:" — use a file path, a file: URL, or a postgres:// URL`,
    );
  }
  return { dialect: "sqlite", path: path.resolve(cwd, value) };
}

export interface Store {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Opens the database named by `url` (see parseDatabaseUrl), brings its schema up to date, and returns it. */
export async function openDb(url?: string): Promise<Store> {
  const target = parseDatabaseUrl(url);
  const db = target.dialect === "sqlite" ? openSqlite(target.path) : openPostgres(target.connectionString);
  tagDialect(db, target.dialect);
  const store: Store = { db, dialect: target.dialect, close: () => db.destroy() };
  try {
    await migrate(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

function openSqlite(file: string): Db {
  let database: SqliteDatabase.Database | undefined;
  try {
    if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
    database = new SqliteDatabase(file);
    // WAL lets readers run beside the writer; busy_timeout makes a second process (the users CLI) wait for
    // the write lock instead of failing at once; foreign keys are off by default in SQLite.
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = NORMAL");
    database.pragma("foreign_keys = ON");
    database.pragma("busy_timeout = 5000");
  } catch (error) {
    database?.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot open the SQLite database at ${file} (DATABASE_URL): ${reason}`, { cause: error });
  }
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

function openPostgres(connectionString: string): Db {
  const pool = new Pool({ connectionString, max: 10 });
  // An idle client losing its connection must not crash the process; the next query gets a fresh client.
  pool.on("error", (error) => console.error(`[db] idle PostgreSQL client error: ${error.message}`));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Applies pending migrations (openDb does this); returns the names applied now. */
export async function migrate(store: Pick<Store, "db" | "dialect">): Promise<string[]> {
  const list = migrations(store.dialect);
  const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => list } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed ? `"${failed}" ` : ""}failed: ${reason}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}

// The dialect rides on the handle's adapter, which every handle derived from it shares (a transaction, a single
// connection), under a registered symbol: every copy of this module reads it, where `instanceof PostgresAdapter`
// fails when the bundler has split Kysely into several copies (lib/brand.ts).
const DIALECT: unique symbol = Symbol.for("gatehouse.db.dialect");

function tagDialect(db: Db, dialect: Dialect): void {
  Object.defineProperty(db.getExecutor().adapter, DIALECT, { value: dialect, enumerable: false });
}

/** The dialect of a handle opened by openDb (or derived from one), as its settings named it. */
export function dialectOf(db: Db): Dialect {
  const dialect = (db.getExecutor().adapter as unknown as Record<symbol, unknown>)[DIALECT];
  if (dialect !== "sqlite" && dialect !== "postgres") throw new Error("This database handle was not opened by openDb: its dialect is unknown.");
  return dialect;
}

/** Whether `db` talks to PostgreSQL (for the rare statement that differs, such as row locks). */
export function isPostgres(db: Db): boolean {
  return dialectOf(db) === "postgres";
}

/**
 * Runs `work` in a transaction meant to read and then write. On SQLite it begins IMMEDIATE, taking the write
 * lock before the first read: a deferred transaction would read a snapshot, then fail with SQLITE_BUSY when
 * another process (the users CLI) wrote meanwhile. On PostgreSQL, `work` locks what it reads (FOR UPDATE).
 */
export async function writeTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return db.transaction().execute(work);
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

// One store per process. Kept on globalThis because Next may load this module more than once (per bundle
// layer, and again on hot reload); they must all share one connection pool.
const GLOBAL_KEY = Symbol.for("gatehouse.store");
type GlobalWithStore = typeof globalThis & { [GLOBAL_KEY]?: Promise<Store> };

/** The process-wide store, opened (and migrated) on first use from DATABASE_URL. */
export function getStore(): Promise<Store> {
  const g = globalThis as GlobalWithStore;
  if (!g[GLOBAL_KEY]) {
    const opening = openDb(readStoreConfig().databaseUrl);
    g[GLOBAL_KEY] = opening;
    // A failed open is not cached: the next call retries (say, once PostgreSQL is reachable).
    opening.catch(() => {
      if (g[GLOBAL_KEY] === opening) delete g[GLOBAL_KEY];
    });
  }
  return g[GLOBAL_KEY];
}

export async function getDb(): Promise<Db> {
  return (await getStore()).db;
}

/** Closes the process-wide store (graceful shutdown, tests). The next getDb() opens it again. */
export async function closeDb(): Promise<void> {
  const g = globalThis as GlobalWithStore;
  const opening = g[GLOBAL_KEY];
  delete g[GLOBAL_KEY];
  if (opening) await (await opening.catch(() => undefined))?.close();
}
