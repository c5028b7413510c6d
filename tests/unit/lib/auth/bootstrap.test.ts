import { describe, expect, it } from "vitest";

import { prepareAccounts } from "@/lib/auth/bootstrap";
import { createUser, DEMO_PASSWORD, listUsers, verifyCredentials } from "@/lib/auth/users";

import { fast, sqliteBackend, useStore } from "@/tests/support/store-backends";

const admin = { email: "Root@Example.com", password: "correct horse battery" };

describe("prepareAccounts at server start", () => {
  const store = useStore(sqliteBackend);

  it("creates the first admin from ADMIN_EMAIL/ADMIN_PASSWORD in an empty store, once", async () => {
    const { db } = store();
    const first = await prepareAccounts(db, { config: { firstAdmin: admin }, demoMode: false }, fast);
    expect(first.firstAdmin).toMatchObject({ email: "root@example.com", role: "admin" });
    expect(first.messages).toEqual([
      { level: "info", text: "Created the first admin, root@example.com, from ADMIN_EMAIL and ADMIN_PASSWORD." },
    ]);
    expect(await verifyCredentials(db, "root@example.com", admin.password, fast)).not.toBeNull();

    const again = await prepareAccounts(
      db,
      { config: { firstAdmin: { ...admin, password: "another password!" } }, demoMode: false },
      fast,
    );
    expect(again.firstAdmin).toBeNull();
    expect(again.messages).toEqual([
      {
        level: "info",
        text: "ADMIN_EMAIL and ADMIN_PASSWORD are ignored: the store already has users, root@example.com among them (change a password with: npm run users -- reset-password root@example.com).",
      },
    ]);
    expect(await verifyCredentials(db, "root@example.com", "another password!", fast)).toBeNull();
  });

  it("says so, with the command that creates it, when ADMIN_EMAIL names nobody in a store that has users", async () => {
    const { db } = store();
    await createUser(db, { email: "someone@example.com", name: "S", role: "admin", password: admin.password }, fast);
    const result = await prepareAccounts(
      db,
      { config: { firstAdmin: { email: "ops@example.com", password: admin.password } }, demoMode: false },
      fast,
    );
    expect(result.firstAdmin).toBeNull();
    expect(result.messages).toEqual([
      {
        level: "warn",
        text: 'ADMIN_EMAIL ops@example.com is not a user of this store, and ADMIN_PASSWORD creates an admin only in an empty store: no admin was created. Create it with: npm run users -- create --email ops@example.com --name "Your Name" --role admin',
      },
    ]);
    expect(await verifyCredentials(db, "ops@example.com", admin.password, fast)).toBeNull();
  });

  it("tells how to create the first user when there is none and no ADMIN_* is set", async () => {
    const { db } = store();
    const result = await prepareAccounts(db, { config: { firstAdmin: null }, demoMode: false }, fast);
    expect(result).toMatchObject({ firstAdmin: null, demoPassword: null });
    expect(result.messages).toEqual([
      {
        level: "warn",
        text: 'No users yet: set ADMIN_EMAIL and ADMIN_PASSWORD and restart, or run: npm run users -- create --email you@example.com --name "Your Name" --role admin',
      },
    ]);
    await createUser(db, { email: "a@example.com", name: "A", role: "admin", password: admin.password }, fast);
    expect((await prepareAccounts(db, { config: { firstAdmin: null }, demoMode: false }, fast)).messages).toEqual([]);
  });

  it("seeds the demo accounts in demo mode and prints their password at every start", async () => {
    const { db } = store();
    for (let start = 0; start < 2; start++) {
      const result = await prepareAccounts(db, { config: { firstAdmin: null }, demoMode: true }, fast);
      expect(result.demoPassword).toBe(DEMO_PASSWORD);
      expect(result.messages).toEqual([
        {
          level: "info",
          text: `Demo accounts (password "${DEMO_PASSWORD}"): admin@demo.test (admin), editor@demo.test (editor), viewer@demo.test (viewer), support@demo.test (support).`,
        },
      ]);
    }
    expect((await listUsers(db)).map((u) => u.role).sort()).toEqual(["admin", "editor", "support", "viewer"]);
  });
});
