// The same repository tests run on each store backend: SQLite (a fresh file per test) and PostgreSQL (a fresh
// database per test on a throwaway cluster). A suite receives a Backend and calls useStore() to get a store.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

import type { ScryptParams } from "@/lib/auth/password";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";

import { startTestPostgres, type TestPostgres } from "./postgres";

export interface Backend {
  name: "sqlite" | "postgres";
  open(): Promise<Store>;
}

export const sqliteBackend: Backend = {
  name: "sqlite",
  async open() {
    const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-db-"));
    const store = await openDb(parseDatabaseUrl(path.join(dir, "test.db")));
    return {
      ...store,
      async close() {
        await store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

/**
 * One database per test file (creating one costs ~0.3 s), emptied before each test: every table but Kysely's
 * migration bookkeeping is truncated, so each test still starts from a freshly migrated, empty store.
 * `server` is read when the first test opens its store, so a beforeAll may start the cluster; call dispose()
 * in afterAll.
 */
export function postgresBackend(server: () => TestPostgres): Backend & { dispose(): Promise<void> } {
  let shared: Promise<Store> | undefined;
  return {
    name: "postgres",
    async open() {
      shared ??= server()
        .createDatabase()
        .then((url) => openDb(parseDatabaseUrl(url)));
      const store = await shared;
      const tables = (await store.db.introspection.getTables()).map((t) => `"${t.name}"`);
      await sql.raw(`TRUNCATE ${tables.join(", ")} RESTART IDENTITY`).execute(store.db);
      return { ...store, close: async () => {} };
    },
    async dispose() {
      const store = await shared;
      shared = undefined;
      await store?.close();
    },
  };
}

/** A fresh, migrated store for each test of the enclosing describe, closed (and removed) after it. */
export function useStore(backend: Backend): () => Store {
  let store: Store | undefined;
  beforeEach(async () => {
    store = await backend.open();
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  return () => {
    if (!store) throw new Error("useStore: no store outside a test");
    return store;
  };
}

/**
 * A cheap scrypt cost for fixtures whose passwords are not the subject of the test (the production cost takes
 * ~0.3 s per hash). Tests about passwords use the default cost.
 */
export const FAST_HASH: ScryptParams = { N: 1024, r: 8, p: 1 };
export const fast = { hashParams: FAST_HASH } as const;

/**
 * Both backends for a test file's describe.each: SQLite, and PostgreSQL on a throwaway cluster started before the
 * file's tests and stopped after them. Call it at the top level of the file.
 */
export function bothBackends(): Backend[] {
  let postgres: TestPostgres | undefined;
  const pg = postgresBackend(() => {
    if (!postgres) throw new Error("PostgreSQL did not start");
    return postgres;
  });
  beforeAll(async () => {
    postgres = await startTestPostgres();
  });
  afterAll(async () => {
    await pg.dispose();
    await postgres?.stop();
  });
  return [sqliteBackend, pg];
}

/** A store the production build opens through DATABASE_URL, for an HTTP test file run on each backend. */
export interface ServerStore {
  name: "SQLite" | "PostgreSQL";
  /** A fresh, empty store: the DATABASE_URL to start the gateway with. */
  create(): Promise<string>;
}

/**
 * Both backends for an HTTP test file's describe.each: the built server on a fresh SQLite file, then on a fresh
 * database of a throwaway PostgreSQL cluster started before the file's tests. Call it at the top level of the file.
 */
export function bothServerStores(): ServerStore[] {
  let postgres: TestPostgres | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return [
    {
      name: "SQLite",
      async create() {
        const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-http-store-"));
        dirs.push(dir);
        return path.join(dir, "store.db");
      },
    },
    {
      name: "PostgreSQL",
      async create() {
        if (!postgres) throw new Error("PostgreSQL did not start");
        return postgres.createDatabase();
      },
    },
  ];
}
