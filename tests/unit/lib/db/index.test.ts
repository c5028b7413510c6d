import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { DatabaseUrlError, parseDatabaseUrl, storeTarget } from "@/lib/config/store";
import { closeDb, externalChangeMark, getDb, getStore, isPostgres, openDb, storeProblem } from "@/lib/db";
import { migrations } from "@/lib/db/migrations";

import { sqliteBackend } from "@/tests/support/store-backends";
import { storeSuite } from "./store.suite";

storeSuite(sqliteBackend);

describe("DATABASE_URL", () => {
  const cwd = "/srv/gatehouse";

  it("defaults to ./data/gatehouse.db", () => {
    expect(parseDatabaseUrl(undefined, cwd)).toEqual({ dialect: "sqlite", path: "/srv/gatehouse/data/gatehouse.db" });
    expect(parseDatabaseUrl("  ", cwd)).toEqual({ dialect: "sqlite", path: "/srv/gatehouse/data/gatehouse.db" });
  });

  it("takes a path or a file: URL for SQLite", () => {
    expect(parseDatabaseUrl("./db/x.db", cwd)).toEqual({ dialect: "sqlite", path: "/srv/gatehouse/db/x.db" });
    expect(parseDatabaseUrl("/var/lib/g.db", cwd)).toEqual({ dialect: "sqlite", path: "/var/lib/g.db" });
    expect(parseDatabaseUrl("file:./db/x.db", cwd)).toEqual({ dialect: "sqlite", path: "/srv/gatehouse/db/x.db" });
    expect(parseDatabaseUrl("file:/var/lib/g.db", cwd)).toEqual({ dialect: "sqlite", path: "/var/lib/g.db" });
    expect(parseDatabaseUrl("file:///var/lib/my%20g.db", cwd)).toEqual({ dialect: "sqlite", path: "/var/lib/my g.db" });
    expect(parseDatabaseUrl(":memory:", cwd)).toEqual({ dialect: "sqlite", path: ":memory:" });
  });

  it("takes postgres:// and postgresql:// URLs for PostgreSQL", () => {
    for (const url of ["postgres://u:p@db:5432/gatehouse", "postgresql://db/gatehouse?sslmode=require"]) {
      expect(parseDatabaseUrl(url, cwd)).toEqual({ dialect: "postgres", connectionString: url });
    }
  });

  it("refuses other schemes and empty file: URLs, naming the variable", () => {
    expect(() => parseDatabaseUrl("mysql://db/gatehouse", cwd)).toThrow(DatabaseUrlError);
    expect(() => parseDatabaseUrl("mysql://db/gatehouse", cwd)).toThrow(
      'DATABASE_URL: unsupported scheme "mysql:"; use a file path (./data/gatehouse.db), a file: URL, or postgres://user:password@host:5432/database',
    );
    expect(() => parseDatabaseUrl("file:", cwd)).toThrow("DATABASE_URL: the file: URL names no file");
  });
});

describe("SQLite store", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "gatehouse-sqlite-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("creates the data folder, and runs with WAL, foreign keys and a busy timeout", async () => {
    const store = await openDb(parseDatabaseUrl(path.join(dir, "nested", "data", "g.db")));
    try {
      expect(store.dialect).toBe("sqlite");
      expect(isPostgres(store.db)).toBe(false);
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`pragma ${name}`).execute(store.db)).rows[0] as Record<string, unknown>)[0];
      expect(await pragma("journal_mode")).toBe("wal");
      expect(await pragma("foreign_keys")).toBe(1);
      expect(await pragma("busy_timeout")).toBe(5000);
    } finally {
      await store.close();
    }
  });

  it("says whether the store answers (readiness), and marks commits made by another connection", async () => {
    const file = path.join(dir, "ready.db");
    const store = await openDb(parseDatabaseUrl(file));
    const other = await openDb(parseDatabaseUrl(file));
    expect(await storeProblem(store.db)).toBeNull();
    const mark = externalChangeMark(store.db);
    await store.db
      .insertInto("users")
      .values({
        id: "u1",
        email: "a@example.com",
        name: "A",
        role: "viewer",
        password_hash: "x",
        disabled: 0,
        session_version: 1,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      })
      .execute();
    expect(externalChangeMark(store.db)).toBe(mark); // its own commit
    await other.db.updateTable("users").set({ disabled: 1 }).execute();
    expect(externalChangeMark(store.db)).not.toBe(mark); // another connection's
    await Promise.all([store.close(), other.close()]);
    expect(await storeProblem(store.db)).toBe("the store cannot be reached");
  });

  it("keeps data across restarts and migrates only once", async () => {
    const file = path.join(dir, "g.db");
    const first = await openDb(parseDatabaseUrl(file));
    await first.db
      .insertInto("login_failures")
      .values({ email: "a@example.com", ip: null, at: new Date().toISOString() })
      .execute();
    await first.close();
    const second = await openDb(parseDatabaseUrl(`file:${file}`));
    try {
      expect(await second.db.selectFrom("login_failures").select("email").execute()).toEqual([
        { email: "a@example.com" },
      ]);
      const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(second.db);
      expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations("sqlite")));
    } finally {
      await second.close();
    }
  });

  describe("is private", () => {
    const mode = async (file: string) => (await stat(file)).mode & 0o777;

    it("creates a missing folder 0700, and the database, its write-ahead log and shared memory 0600", async () => {
      const file = path.join(dir, "new", "deeper", "g.db");
      const store = await openDb(parseDatabaseUrl(file));
      try {
        await store.db
          .insertInto("login_failures")
          .values({ email: "a@example.com", ip: null, at: new Date().toISOString() })
          .execute();
        expect(await mode(path.join(dir, "new"))).toBe(0o700);
        expect(await mode(path.join(dir, "new", "deeper"))).toBe(0o700);
        for (const each of [file, `${file}-wal`, `${file}-shm`]) expect(await mode(each), each).toBe(0o600);
        expect(store.notes).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it("tightens a store others can read, and its folder when it holds only Gatehouse's data, saying so", async () => {
      const folder = path.join(dir, "data");
      const file = path.join(folder, "gatehouse.db");
      await (await openDb(parseDatabaseUrl(file))).close();
      await mkdir(path.join(folder, "demo"));
      await chmod(file, 0o644);
      await chmod(folder, 0o755);
      const store = await openDb(parseDatabaseUrl(file));
      await store.close();
      expect(await mode(file)).toBe(0o600);
      expect(await mode(folder)).toBe(0o700);
      expect(store.notes).toEqual([
        `The store file ${file} was readable by other users (mode 0644); it is now 0600.`,
        `The store's folder ${folder} was open to other users (mode 0755); it is now 0700.`,
      ]);
    });

    it("leaves a folder that holds other things as it is (the store file is still tightened)", async () => {
      const folder = path.join(dir, "shared");
      await mkdir(folder, { mode: 0o755 });
      await writeFile(path.join(folder, "someone-elses.txt"), "x");
      await chmod(folder, 0o755);
      const file = path.join(folder, "g.db");
      await writeFile(file, "");
      await chmod(file, 0o664);
      const store = await openDb(parseDatabaseUrl(file));
      await store.close();
      expect(await mode(folder)).toBe(0o755);
      expect(await mode(file)).toBe(0o600);
      expect(store.notes).toEqual([`The store file ${file} was readable by other users (mode 0664); it is now 0600.`]);
    });
  });

  it("explains a file that is not a database", async () => {
    const file = path.join(dir, "notes.txt");
    await writeFile(file, "these are not the tables you are looking for ".repeat(100));
    await expect(openDb(parseDatabaseUrl(file))).rejects.toThrow(
      `Cannot open the SQLite database at ${file} (DATABASE_URL): file is not a database`,
    );
  });

  describe("getDb", () => {
    afterEach(async () => {
      await closeDb();
    });

    it("opens the store once per process, shared through globalThis, and reopens after closeDb", async () => {
      const target = parseDatabaseUrl(path.join(dir, "shared.db"));
      const [a, b] = await Promise.all([getDb(target), getDb(target)]);
      expect(a).toBe(b);
      expect((globalThis as Record<symbol, unknown>)[Symbol.for("gatehouse.store")]).toBe(getStore(target));
      await closeDb();
      const c = await getDb(target);
      expect(c).not.toBe(a);
      expect(await c.selectFrom("users").select("id").execute()).toEqual([]);
    });

    it("does not keep a failed open: the next call tries again", async () => {
      const unopenable = parseDatabaseUrl(path.join(dir, "not-a-folder", "x.db"));
      await writeFile(path.join(dir, "not-a-folder"), "a file where the store's folder should be");
      await expect(getDb(unopenable)).rejects.toThrow();
      expect((await getStore(parseDatabaseUrl(path.join(dir, "retry.db")))).dialect).toBe("sqlite");
    });

    it("reads no environment: DATABASE_URL is read by lib/config (storeTarget), which refuses a bad one", () => {
      expect(() => storeTarget({ DATABASE_URL: "mysql://nowhere/db" })).toThrow(DatabaseUrlError);
    });
  });
});
