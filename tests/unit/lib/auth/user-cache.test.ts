// The session check's copy of its user: kept briefly on SQLite (one instance per file), dropped at once by a
// change made through this process or committed by another (the users CLI), and — with Redis — by a change
// another instance announces; not kept on PostgreSQL without Redis, nor while Redis is away.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { forgetUser, sessionUser, TTL_MS } from "@/lib/auth/user-cache";
import { createUser, revokeSessions } from "@/lib/auth/users";
import { localCluster, redisCluster, type Cluster } from "@/lib/cluster";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";

import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import { fast, sqliteBackend } from "@/tests/support/store-backends";
import { until } from "@/tests/support/until";

let store: Store;
let redis: TestRedis;
const clusters: Cluster[] = [];

beforeAll(async () => {
  [store, redis] = await Promise.all([sqliteBackend.open(), startTestRedis()]);
});
afterAll(async () => {
  await Promise.all(clusters.map((cluster) => cluster.close()));
  await Promise.all([store?.close(), redis?.stop()]);
});

/** A change made behind the cache's back (as another instance would make it). */
const bumpInStore = (id: string) =>
  store.db
    .updateTable("users")
    .set((eb) => ({ session_version: eb("session_version", "+", 1) }))
    .where("id", "=", id)
    .execute();

describe("sessionUser", () => {
  it("on SQLite: keeps the row up to TTL_MS, and a change through this process is seen at once", async () => {
    const solo = localCluster("solo");
    const user = await createUser(
      store.db,
      { email: "solo@example.com", name: "Solo", role: "viewer", password: "a long enough password here" },
      fast,
    );
    const t = Date.now();
    expect((await sessionUser(store.db, user.id, t, solo))?.sessionVersion).toBe(1);
    await bumpInStore(user.id);
    expect((await sessionUser(store.db, user.id, t + 10, solo))?.sessionVersion).toBe(1); // the copy, within its TTL
    expect((await sessionUser(store.db, user.id, t + TTL_MS, solo))?.sessionVersion).toBe(2); // the safety net
    await revokeSessions(store.db, user.id); // through this process: dropped at once
    expect((await sessionUser(store.db, user.id, t + TTL_MS + 10, solo))?.sessionVersion).toBe(3);
  });

  it("on SQLite: a change committed by another process (the users CLI) is seen at once", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "gatehouse-user-cache-"));
    const file = path.join(folder, "gatehouse.db");
    const server = await openDb(parseDatabaseUrl(file));
    const cli = await openDb(parseDatabaseUrl(file));
    try {
      const solo = localCluster("solo");
      const user = await createUser(
        server.db,
        { email: "cli@example.com", name: "Cli", role: "viewer", password: "a long enough password here" },
        fast,
      );
      const t = Date.now();
      expect((await sessionUser(server.db, user.id, t, solo))?.disabled).toBe(false);
      await cli.db.updateTable("users").set({ disabled: 1 }).where("id", "=", user.id).execute();
      expect((await sessionUser(server.db, user.id, t + 1, solo))?.disabled).toBe(true);
    } finally {
      await Promise.all([server.close(), cli.close()]);
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("with Redis: another instance's change drops the copy here; while Redis is away nothing is kept", async () => {
    const here = redisCluster(redis.url, "here");
    const there = redisCluster(redis.url, "there");
    clusters.push(here, there);
    await until(async () => here.up() && there.up(), "both connected");
    const user = await createUser(
      store.db,
      { email: "pair@example.com", name: "Pair", role: "viewer", password: "a long enough password here" },
      fast,
    );
    await sessionUser(store.db, user.id, Date.now(), here); // subscribes, and keeps a copy
    await until(async () => {
      await bumpInStore(user.id);
      forgetUser(user.id, there);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const seen = await sessionUser(store.db, user.id, Date.now(), here);
      const row = await store.db
        .selectFrom("users")
        .select("session_version")
        .where("id", "=", user.id)
        .executeTakeFirstOrThrow();
      return seen?.sessionVersion === Number(row.session_version);
    }, "the other instance's change is seen here");

    await redis.kill();
    await until(async () => !here.up(), "Redis is gone");
    const before = await sessionUser(store.db, user.id, Date.now(), here);
    await bumpInStore(user.id);
    expect((await sessionUser(store.db, user.id, Date.now(), here))?.sessionVersion).toBe(before!.sessionVersion + 1);
    await redis.start();
  });
});
