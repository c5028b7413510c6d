// The repository suites again, on PostgreSQL: a throwaway cluster for this file, a fresh database per test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { sql } from "kysely";

import { createUser, getUserById, updateUser } from "@/lib/auth/users";
import { parseDatabaseUrl } from "@/lib/config/store";
import { isPostgres, openDb, type Db } from "@/lib/db";

import { auditSuite } from "@/tests/unit/lib/auth/audit.suite";
import { demoAccountsSuite } from "@/tests/unit/lib/auth/demo-accounts.suite";
import { throttleSuite } from "@/tests/unit/lib/auth/throttle.suite";
import { usersSuite } from "@/tests/unit/lib/auth/users.suite";
import { tokensStoreSuite } from "@/tests/unit/lib/tokens/store.suite";
import { tokenUsageSuite } from "@/tests/unit/lib/tokens/usage.suite";
import { deliveriesSuite } from "@/tests/unit/lib/webhooks/deliveries.suite";
import { upstreamKeysSuite } from "@/tests/unit/lib/upstream/keys/store.suite";

import { fast, postgresBackend, useStore } from "@/tests/support/store-backends";
import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";
import { storeSuite } from "./store.suite";

const PASSWORD = "correct horse battery";

async function someoneWaitsForALock(db: Db): Promise<boolean> {
  const { rows } = await sql<{ waiting: number }>`
    select count(*)::int as waiting from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
  return (rows[0]?.waiting ?? 0) > 0;
}

let server: TestPostgres | undefined;

beforeAll(async () => {
  server = await startTestPostgres();
});

const postgres = postgresBackend(() => {
  if (!server) throw new Error("PostgreSQL did not start");
  return server;
});

afterAll(async () => {
  await postgres.dispose();
  await server?.stop();
});

describe("PostgreSQL store", () => {
  const store = useStore(postgres);

  it("is recognised as PostgreSQL", () => {
    expect(store().dialect).toBe("postgres");
    expect(isPostgres(store().db)).toBe(true);
  });

  it("makes a demotion wait for another in flight, then see it and refuse to remove the last admin", async () => {
    const { db } = store();
    const a = await createUser(db, { email: "a@example.com", name: "A", role: "admin", password: PASSWORD }, fast);
    const b = await createUser(db, { email: "b@example.com", name: "B", role: "admin", password: PASSWORD }, fast);

    // Another instance demotes A and has not committed yet.
    const other = await db.startTransaction().execute();
    await other.updateTable("users").set({ role: "editor" }).where("id", "=", a.id).execute();

    let settled = false;
    const attempt = updateUser(db, b.id, { disabled: true }).then(
      () => null,
      (error: unknown) => error,
    );
    void attempt.finally(() => (settled = true));
    // Without row locks the attempt would read A as still admin and finish; with them it queues behind A's row.
    for (let i = 0; !settled && !(await someoneWaitsForALock(db)); i++) {
      if (i > 500) throw new Error("the demotion neither finished nor waited for a lock");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await other.commit().execute();

    expect(await attempt).toMatchObject({ code: "last_admin" });
    expect(await getUserById(db, b.id)).toMatchObject({ role: "admin", disabled: false });
  });

  it("reports an unreachable server as an error, not a hang", async () => {
    await expect(openDb(parseDatabaseUrl("postgres://postgres@127.0.0.1:1/none"))).rejects.toThrow(
      /ECONNREFUSED|connect/,
    );
  });
});

storeSuite(postgres);
usersSuite(postgres);
tokensStoreSuite(postgres);
tokenUsageSuite(postgres);
deliveriesSuite(postgres);
throttleSuite(postgres);
auditSuite(postgres);
demoAccountsSuite(postgres);
upstreamKeysSuite(postgres);
