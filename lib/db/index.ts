// The store: one Kysely handle over SQLite (default, embedded file) or PostgreSQL (several portal instances).
// Migrations run when the store opens, so a fresh deployment needs no separate step. Which store to open is the
// caller's to say (a DatabaseTarget, which lib/config/store.ts reads from DATABASE_URL): this room reads no
// environment.
import "server-only";

import { chmodSync, closeSync, existsSync, openSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

import SqliteDatabase from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect, type KyselyConfig, type LogEvent } from "kysely";
import { Pool } from "pg";

import { makeStoreFolder, type DatabaseTarget } from "@/lib/config/store";
import { processPromise, processSlot } from "@/lib/process-wide";
import { recordSpan, tracingOn } from "@/lib/telemetry";

import { migrations, type Dialect } from "./migrations";
import type { Database } from "./schema";

export type { Database } from "./schema";
export type { Dialect } from "./migrations";
export type Db = Kysely<Database>;

export interface Store {
  db: Db;
  dialect: Dialect;
  /** What opening it changed that an operator should hear of (a store file made private). */
  notes: string[];
  close(): Promise<void>;
}

/** Opens the database `target` names, brings its schema up to date, and returns it. */
export async function openDb(target: DatabaseTarget): Promise<Store> {
  const notes = target.dialect === "sqlite" ? makePrivate(target.path) : [];
  const db = target.dialect === "sqlite" ? openSqlite(target.path) : openPostgres(target.connectionString);
  tagDialect(db, target.dialect);
  if (target.dialect === "sqlite") notes.push(...makePrivate(target.path));
  const store: Store = { db, dialect: target.dialect, notes, close: () => db.destroy() };
  try {
    await migrate(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/**
 * The files SQLite keeps for a store: the database, its write-ahead log and shared memory, a rollback journal;
 * and Gatehouse's `.instance` marker of the process using it (lib/cluster/startup.ts).
 */
const storeFiles = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`, `${file}.instance`];

/**
 * The store holds password hashes and the audit log: only its owner may read it. A missing folder is created
 * 0700 and the file 0600 before SQLite opens it (its -wal and -shm files take the database file's mode). A file
 * other users can read is tightened to 0600, and so is a folder that holds nothing but Gatehouse's data; each
 * change is returned as a sentence for the log. A folder that holds other things (/var/lib, /tmp) is left alone.
 * (The paths come from DATABASE_URL at run time: the build's file tracer is told not to follow them.)
 */
function makePrivate(file: string): string[] {
  if (file === ":memory:") return [];
  const notes: string[] = [];
  const folder = path.dirname(file);
  try {
    makeStoreFolder(file);
    if (!existsSync(/*turbopackIgnore: true*/ file)) closeSync(openSync(/*turbopackIgnore: true*/ file, "a", 0o600));
    for (const each of storeFiles(file)) {
      if (!existsSync(/*turbopackIgnore: true*/ each)) continue;
      const mode = statSync(/*turbopackIgnore: true*/ each).mode & 0o777;
      if ((mode & 0o077) === 0) continue;
      chmodSync(/*turbopackIgnore: true*/ each, 0o600);
      notes.push(
        `The store file ${each} was readable by other users (mode ${mode.toString(8).padStart(4, "0")}); it is now 0600.`,
      );
    }
    const mode = statSync(/*turbopackIgnore: true*/ folder).mode & 0o777;
    if ((mode & 0o077) !== 0 && holdsOnlyGatehouseData(folder, file)) {
      chmodSync(/*turbopackIgnore: true*/ folder, 0o700);
      notes.push(
        `The store's folder ${folder} was open to other users (mode ${mode.toString(8).padStart(4, "0")}); it is now 0700.`,
      );
    }
  } catch (error) {
    // Not ours to change (another owner, a read-only mount): SQLite's own open says whether the store is usable.
    const reason = error instanceof Error ? error.message : String(error);
    notes.push(`Could not make the store at ${file} private: ${reason}`);
  }
  return notes;
}

/** The folder holds the store's files and Gatehouse's other data folders only (./data: the demo, the sandbox). */
function holdsOnlyGatehouseData(folder: string, file: string): boolean {
  const ours = new Set([...storeFiles(file).map((each) => path.basename(each)), "demo", "sandbox", "session-secret"]);
  return readdirSync(/*turbopackIgnore: true*/ folder).every((entry) => ours.has(entry));
}

function openSqlite(file: string): Db {
  let database: SqliteDatabase.Database | undefined;
  try {
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }), ...traced("sqlite") });
  // Prepared once: it is read on every request (lib/auth/user-cache.ts), and pragma() prepares it anew each time.
  const dataVersion = database.prepare("PRAGMA data_version").pluck();
  Object.defineProperty(db.getExecutor().adapter, DATA_VERSION, {
    value: () => Number(dataVersion.get()),
    enumerable: false,
  });
  return db;
}

function openPostgres(connectionString: string): Db {
  const pool = new Pool({ connectionString, max: 10 });
  // An idle client losing its connection must not crash the process; the next query gets a fresh client.
  pool.on("error", (error) => console.error(`[db] idle PostgreSQL client error: ${error.message}`));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...traced("postgresql") });
}

const QUERY_KINDS: Record<string, string> = {
  SelectQueryNode: "SELECT",
  InsertQueryNode: "INSERT",
  UpdateQueryNode: "UPDATE",
  DeleteQueryNode: "DELETE",
  RawNode: "RAW",
};

/**
 * With traces on (lib/telemetry), a span per query, made from Kysely's log hook after the query ran (its start and
 * duration): the cheapest hook Kysely has, no wrapping of the driver. The span says the kind of statement and the
 * store, never the SQL's parameters. With traces off the store is opened without the hook: it costs nothing.
 */
function traced(system: "sqlite" | "postgresql"): Pick<KyselyConfig, "log"> {
  if (!tracingOn()) return {};
  return {
    log: (event: LogEvent) => {
      const kind = QUERY_KINDS[event.query.query.kind] ?? "OTHER";
      recordSpan(
        `db ${kind}`,
        Date.now() - event.queryDurationMillis,
        { "db.system.name": system, "db.operation.name": kind },
        event.level === "error",
      );
    },
  };
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
const DATA_VERSION: unique symbol = Symbol.for("gatehouse.db.dataVersion");

/**
 * SQLite only (null on PostgreSQL): a number that changes whenever another connection — another process, such
 * as the users CLI — has committed to the store since this one last looked. Synchronous and cheap (no query):
 * for copies of rows kept in memory that must not outlive a change made elsewhere.
 */
export function externalChangeMark(db: Db): number | null {
  const read = (db.getExecutor().adapter as unknown as Record<symbol, (() => number) | undefined>)[DATA_VERSION];
  return read ? read() : null;
}

function tagDialect(db: Db, dialect: Dialect): void {
  Object.defineProperty(db.getExecutor().adapter, DIALECT, { value: dialect, enumerable: false });
}

/** The dialect of a handle opened by openDb (or derived from one), as its settings named it. */
export function dialectOf(db: Db): Dialect {
  const dialect = (db.getExecutor().adapter as unknown as Record<symbol, unknown>)[DIALECT];
  if (dialect !== "sqlite" && dialect !== "postgres")
    throw new Error("This database handle was not opened by openDb: its dialect is unknown.");
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

// One store per process, and so one connection pool, also across a hot reload.
const STORE = "store";

/**
 * The process-wide store, opened (and migrated) on first use. One per process: the target of the call that opens
 * it is the store until closeDb(). A failed open is not kept: the next call retries (once PostgreSQL is reachable).
 */
export function getStore(target: DatabaseTarget): Promise<Store> {
  return processPromise(STORE, () => openDb(target));
}

export async function getDb(target: DatabaseTarget): Promise<Db> {
  return (await getStore(target)).db;
}

/** Closes the process-wide store (graceful shutdown, tests). The next getDb() opens it again. */
export async function closeDb(): Promise<void> {
  const store = processSlot<Promise<Store>>(STORE);
  const opening = store.get();
  store.set(undefined);
  if (opening) await (await opening.catch(() => undefined))?.close();
}

/** Whether the store answers a trivial query within `timeoutMs` (readiness): the problem in words, or null. */
export async function storeProblem(db: Db, timeoutMs = 2_000): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the store did not answer within ${timeoutMs} ms`), timeoutMs);
  });
  const query = sql`select 1`.execute(db).then(
    () => null,
    () => "the store cannot be reached",
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
