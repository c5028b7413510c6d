import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { AccountError, createUser, getUserById, updateUser } from "@/lib/auth/users";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb } from "@/lib/db";

import { fast, sqliteBackend } from "@/tests/support/store-backends";

import { usersSuite } from "./users.suite";

usersSuite(sqliteBackend);

describe("the last-admin guard against another process writing at the same moment (sqlite)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "gatehouse-race-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("waits for the other writer, then sees its change and refuses", async () => {
    const file = path.join(dir, "race.db");
    const store = await openDb(parseDatabaseUrl(file));
    try {
      const a = await createUser(
        store.db,
        { email: "a@example.com", name: "A", role: "admin", password: "correct horse battery" },
        fast,
      );
      const b = await createUser(
        store.db,
        { email: "b@example.com", name: "B", role: "admin", password: "correct horse battery" },
        fast,
      );

      // Another process (say, the users CLI) demotes A and holds its transaction open briefly.
      const other = spawn(process.execPath, ["-e", OTHER_WRITER, file, a.id], { stdio: ["ignore", "pipe", "inherit"] });
      const exited = new Promise((resolve) => other.once("exit", resolve));
      await new Promise<void>((resolve, reject) => {
        other.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve());
        other.once("exit", (code) => reject(new Error(`the other writer exited (${code}) before locking`)));
      });

      // This starts while the other transaction still holds the write lock.
      const refused = await updateUser(store.db, b.id, { disabled: true }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(AccountError);
      expect((refused as AccountError).code).toBe("last_admin");
      expect(await exited).toBe(0);
      expect(await getUserById(store.db, a.id)).toMatchObject({ role: "editor" });
      expect(await getUserById(store.db, b.id)).toMatchObject({ role: "admin", disabled: false });
    } finally {
      await store.close();
    }
  });
});

// Runs in a child process: begins a write transaction, demotes the user, says "locked", commits 300 ms later.
const OTHER_WRITER = `
const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve("better-sqlite3"))});
const [file, id] = process.argv.slice(1);
const db = new Database(file);
db.pragma("busy_timeout = 5000");
db.exec("BEGIN IMMEDIATE");
db.prepare("UPDATE users SET role = 'editor' WHERE id = ?").run(id);
process.stdout.write("locked\\n");
setTimeout(() => { db.exec("COMMIT"); db.close(); }, 300);
`;
