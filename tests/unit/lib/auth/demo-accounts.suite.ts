// Demo accounts in a store, on each backend: found by address or by the demo password (each hash checked once,
// again when it changes), and removed by the CLI's remove-demo-accounts.
import { describe, expect, it } from "vitest";

import { findDemoAccounts, removeDemoAccounts } from "@/lib/auth/demo-accounts";
import { hashPassword } from "@/lib/auth/password";
import { createUser, DEMO_PASSWORD, listUsers, seedDemoUsers, updateUser } from "@/lib/auth/users";
import type { Db } from "@/lib/db";

import { fast, useStore, type Backend } from "@/tests/support/store-backends";

/**
 * The password policy refuses the demo password for any account it sets, but a store may hold one from before
 * the policy (an account added while the demo ran): written here as such a version would have written it.
 */
async function givenOldPassword(db: Db, id: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password, fast.hashParams);
  await db.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", id).execute();
}

export function demoAccountsSuite(backend: Backend) {
  describe(`demo accounts (${backend.name})`, () => {
    const store = useStore(backend);

    it("finds none in a store of real accounts, and remembers each hash it checked", async () => {
      const { db } = store();
      const ops = await createUser(
        db,
        { email: "ops@example.com", name: "Ops", role: "admin", password: "an operator password" },
        fast,
      );
      expect(await findDemoAccounts(db)).toEqual([]);
      expect(await db.selectFrom("password_screening").selectAll().execute()).toEqual([
        { user_id: ops.id, password_hash: expect.stringMatching(/^scrypt\$/), screened_at: expect.any(String) },
      ]);
    });

    it("finds the seeded demo accounts by address, and any account with the demo password", async () => {
      const { db } = store();
      await seedDemoUsers(db, fast);
      const user = await createUser(
        db,
        { email: "vera@example.com", name: "Vera", role: "viewer", password: "plum-orbit-velvet-harbor" },
        fast,
      );
      expect((await findDemoAccounts(db)).map((a) => [a.email, a.why])).toEqual([
        ["admin@demo.test", "demo address"],
        ["editor@demo.test", "demo address"],
        ["support@demo.test", "demo address"],
        ["viewer@demo.test", "demo address"],
      ]);
      // A password changed to the demo's: its new hash is checked at the next start.
      await givenOldPassword(db, user.id, DEMO_PASSWORD);
      expect((await findDemoAccounts(db)).filter((a) => a.why === "demo password")).toEqual([
        { id: user.id, email: "vera@example.com", why: "demo password" },
      ]);
      // Still found while it has it (a hash with the demo password is never remembered as clean).
      expect((await findDemoAccounts(db)).map((a) => a.email)).toContain("vera@example.com");
      await updateUser(db, user.id, { password: "kettle-saffron-meadow-quartz" }, fast);
      expect((await findDemoAccounts(db)).map((a) => a.email)).not.toContain("vera@example.com");
    });

    it("removes them, and only them", async () => {
      const { db } = store();
      await seedDemoUsers(db, fast);
      const same = await createUser(
        db,
        { email: "same@example.com", name: "Same", role: "editor", password: "plum-orbit-velvet-harbor" },
        fast,
      );
      await givenOldPassword(db, same.id, DEMO_PASSWORD);
      await createUser(
        db,
        { email: "ops@example.com", name: "Ops", role: "admin", password: "an operator password" },
        fast,
      );
      const removed = await removeDemoAccounts(db);
      expect(removed.map((a) => a.email).sort()).toEqual([
        "admin@demo.test",
        "editor@demo.test",
        "same@example.com",
        "support@demo.test",
        "viewer@demo.test",
      ]);
      expect((await listUsers(db)).map((u) => u.email)).toEqual(["ops@example.com"]);
      expect(await findDemoAccounts(db)).toEqual([]);
      expect(await removeDemoAccounts(db)).toEqual([]);
    });
  });
}
