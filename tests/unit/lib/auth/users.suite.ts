// Users repository behaviour, run on every backend (tests/unit/lib/auth/users.test.ts: SQLite; tests/unit/lib/db/postgres.test.ts).
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";

import { DEFAULT_SCRYPT_PARAMS, needsRehash } from "@/lib/auth/password";
import {
  AccountError,
  createUser,
  DEMO_PASSWORD,
  DEMO_USERS,
  ensureFirstAdmin,
  getUserByEmail,
  getUserById,
  listUsers,
  revokeSessions,
  seedDemoUsers,
  updateUser,
  verifyCredentials,
  type CreateUserInput,
} from "@/lib/auth/users";
import type { Db } from "@/lib/db";

import { fast, useStore, type Backend } from "@/tests/support/store-backends";

const PASSWORD = "correct horse battery";

function person(email: string, role: CreateUserInput["role"] = "viewer"): CreateUserInput {
  return { email, name: email.split("@")[0] ?? email, role, password: PASSWORD };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

async function accountErrorCode(promise: Promise<unknown>): Promise<string> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(AccountError);
  return (error as AccountError).code;
}

async function zodMessages(promise: Promise<unknown>): Promise<string[]> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(ZodError);
  return (error as ZodError).issues.map((i) => i.message);
}

async function storedHash(db: Db, id: string): Promise<string> {
  const row = await db.selectFrom("users").select("password_hash").where("id", "=", id).executeTakeFirstOrThrow();
  return row.password_hash;
}

export function usersSuite(backend: Backend) {
  describe(`users (${backend.name})`, () => {
    const store = useStore(backend);

    describe("createUser", () => {
      it("stores the email trimmed and lowercased, and finds it whatever the case", async () => {
        const { db } = store();
        const user = await createUser(db, { ...person("x@x.test"), email: "  Alice@Example.COM " }, fast);
        expect(user).toMatchObject({
          email: "alice@example.com",
          name: "x",
          role: "viewer",
          disabled: false,
          sessionVersion: 1,
        });
        expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(user.createdAt).toBe(user.updatedAt);
        expect((await getUserByEmail(db, "ALICE@example.com"))?.id).toBe(user.id);
        expect((await getUserById(db, user.id))?.email).toBe("alice@example.com");
        expect(await getUserById(db, "no-such-id")).toBeNull();
        expect(await getUserByEmail(db, "nobody@example.com")).toBeNull();
      });

      it("refuses a second user with the same email in another case, with a typed error", async () => {
        const { db } = store();
        await createUser(db, person("alice@example.com"), fast);
        expect(await accountErrorCode(createUser(db, person("ALICE@Example.com", "admin"), fast))).toBe("email_taken");
        expect(await listUsers(db)).toHaveLength(1);
      });

      it("keeps only a salted scrypt hash of the password, never the password", async () => {
        const { db } = store();
        const a = await createUser(db, person("a@example.com"), fast);
        const b = await createUser(db, person("b@example.com"), fast);
        const [hashA, hashB] = [await storedHash(db, a.id), await storedHash(db, b.id)];
        expect(hashA).toMatch(/^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
        expect(hashA).not.toContain(PASSWORD);
        expect(hashA).not.toBe(hashB); // same password, different salts
        expect(Object.keys(a)).not.toContain("passwordHash");
        expect(JSON.stringify(await listUsers(db))).not.toContain("scrypt$");
      });

      it("says what is wrong with each invalid field", async () => {
        const { db } = store();
        expect(await zodMessages(createUser(db, { ...person("a@example.com"), password: "short" }, fast))).toEqual([
          "password must be at least 12 characters",
        ]);
        expect(
          await zodMessages(createUser(db, { ...person("a@example.com"), password: "x".repeat(257) }, fast)),
        ).toEqual(["password must be at most 256 characters"]);
        expect(
          await zodMessages(createUser(db, { ...person("a@example.com"), password: " \u200b".repeat(8) }, fast)),
        ).toEqual(["password must not be only spaces or invisible characters"]);
        expect(
          await zodMessages(createUser(db, { ...person("a@example.com"), password: "password1234" }, fast)),
        ).toEqual([
          "password is too easy to guess: This is similar to a commonly used password. Use a longer phrase of unrelated words",
        ]);
        expect(
          await zodMessages(createUser(db, { ...person("a@example.com"), password: "a@example.com" }, fast)),
        ).toEqual(["password must not contain the account's email"]);
        expect(await zodMessages(createUser(db, { ...person("a@example.com"), email: "not-an-email" }, fast))).toEqual([
          "email must be an address such as name@example.com",
        ]);
        expect(await zodMessages(createUser(db, { ...person("a@example.com"), name: "   " }, fast))).toEqual([
          "name must not be empty",
        ]);
        expect(
          await zodMessages(createUser(db, { ...person("a@example.com"), role: "owner" as "admin" }, fast)),
        ).toEqual(["role must be one of: admin, editor, viewer, support"]);
        expect(await listUsers(db)).toEqual([]);
      });
    });

    it("lists users by email", async () => {
      const { db } = store();
      for (const email of ["carol@example.com", "alice@example.com", "bob@example.com"]) {
        await createUser(db, person(email), fast);
      }
      expect((await listUsers(db)).map((u) => u.email)).toEqual([
        "alice@example.com",
        "bob@example.com",
        "carol@example.com",
      ]);
    });

    describe("updateUser", () => {
      it("changes the name without ending sessions, and records when", async () => {
        const { db } = store();
        const user = await createUser(db, person("a@example.com"), { ...fast, now: new Date("2025-01-01T00:00:00Z") });
        const updated = await updateUser(db, user.id, { name: "  Ann  " }, { now: new Date("2025-02-01T00:00:00Z") });
        expect(updated).toMatchObject({ name: "Ann", sessionVersion: 1, updatedAt: "2025-02-01T00:00:00.000Z" });
        expect(updated.createdAt).toBe("2025-01-01T00:00:00.000Z");
      });

      it("ends sessions on a role change, a password change and disabling — not on enabling or a same-role write", async () => {
        const { db } = store();
        const user = await createUser(db, person("a@example.com"), fast);
        expect((await updateUser(db, user.id, { role: "viewer" })).sessionVersion).toBe(1);
        expect((await updateUser(db, user.id, { role: "editor" })).sessionVersion).toBe(2);
        expect((await updateUser(db, user.id, { password: "a brand new password" }, fast)).sessionVersion).toBe(3);
        const disabled = await updateUser(db, user.id, { disabled: true });
        expect(disabled).toMatchObject({ disabled: true, sessionVersion: 4 });
        expect((await updateUser(db, user.id, { disabled: true })).sessionVersion).toBe(4);
        expect(await updateUser(db, user.id, { disabled: false })).toMatchObject({
          disabled: false,
          sessionVersion: 4,
        });
      });

      it("replaces the password: the new one signs in, the old one no longer does", async () => {
        const { db } = store();
        const user = await createUser(db, person("a@example.com"), fast);
        await updateUser(db, user.id, { password: "a brand new password" }, fast);
        expect(await verifyCredentials(db, "a@example.com", PASSWORD, fast)).toBeNull();
        expect((await verifyCredentials(db, "a@example.com", "a brand new password", fast))?.id).toBe(user.id);
      });

      it("refuses a password for a service account, saying why, and changes nothing", async () => {
        const { db } = store();
        const bot = await createUser(
          db,
          { email: "bot@example.com", name: "Bot", role: "support", service: true },
          fast,
        );
        const before = await storedHash(db, bot.id);
        const error = await rejection(
          updateUser(db, bot.id, { password: "a brand new password", name: "Renamed" }, fast),
        );
        expect(error).toMatchObject({
          code: "service_account",
          message:
            "service accounts have no password: bot@example.com never signs in and acts only through the API tokens an admin makes for it",
        });
        expect(await storedHash(db, bot.id)).toBe(before);
        expect(await getUserById(db, bot.id)).toMatchObject({ name: "Bot", sessionVersion: 1 });
      });

      it("refuses an unknown user, an empty change and unknown fields", async () => {
        const { db } = store();
        const user = await createUser(db, person("a@example.com"), fast);
        expect(await accountErrorCode(updateUser(db, "no-such-id", { name: "X" }))).toBe("user_not_found");
        expect(await zodMessages(updateUser(db, user.id, {}))).toEqual([
          "nothing to change: give at least one of name, role, disabled, password, role_pinned",
        ]);
        expect(await zodMessages(updateUser(db, user.id, { email: "b@example.com" } as never))).toEqual([
          "unknown field: email (known: name, role, disabled, password, role_pinned, revoke_tokens)",
        ]);
        expect(await zodMessages(updateUser(db, user.id, { disabled: "yes" } as never))).toEqual([
          "disabled must be true or false",
        ]);
      });
    });

    describe("the last active admin", () => {
      it("cannot be demoted or disabled", async () => {
        const { db } = store();
        const admin = await createUser(db, person("root@example.com", "admin"), fast);
        await createUser(db, person("viewer@example.com"), fast);
        expect(await accountErrorCode(updateUser(db, admin.id, { role: "editor" }))).toBe("last_admin");
        expect(await accountErrorCode(updateUser(db, admin.id, { disabled: true }))).toBe("last_admin");
        expect(await getUserById(db, admin.id)).toMatchObject({ role: "admin", disabled: false, sessionVersion: 1 });
        // Other changes to him are fine.
        expect((await updateUser(db, admin.id, { name: "Root", role: "admin" })).name).toBe("Root");
      });

      it("can go once another admin exists, and a disabled admin does not count", async () => {
        const { db } = store();
        const first = await createUser(db, person("first@example.com", "admin"), fast);
        const second = await createUser(db, person("second@example.com", "admin"), fast);
        await updateUser(db, second.id, { disabled: true });
        expect(await accountErrorCode(updateUser(db, first.id, { role: "viewer" }))).toBe("last_admin");
        await updateUser(db, second.id, { disabled: false });
        expect((await updateUser(db, first.id, { role: "viewer" })).role).toBe("viewer");
        expect(await accountErrorCode(updateUser(db, second.id, { disabled: true }))).toBe("last_admin");
        // Demoting a disabled admin removes no active admin.
        const third = await createUser(db, person("third@example.com", "admin"), fast);
        await updateUser(db, first.id, { role: "admin" });
        await updateUser(db, third.id, { disabled: true });
        expect((await updateUser(db, third.id, { role: "support" })).role).toBe("support");
      });

      it("counts only admins who can sign in: a service account admin does not keep the last person in", async () => {
        const { db } = store();
        const root = await createUser(db, person("root@example.com", "admin"), fast);
        const bot = await createUser(db, { email: "bot@example.com", name: "Bot", role: "admin", service: true }, fast);
        expect(await accountErrorCode(updateUser(db, root.id, { role: "editor" }))).toBe("last_admin");
        expect(await accountErrorCode(updateUser(db, root.id, { disabled: true }))).toBe("last_admin");
        expect(await getUserById(db, root.id)).toMatchObject({ role: "admin", disabled: false });
        // The service account itself may go: no one signs in as it.
        expect((await updateUser(db, bot.id, { role: "support" })).role).toBe("support");
      });

      it("survives two admins demoting each other at the same moment: exactly one change lands", async () => {
        const { db } = store();
        const a = await createUser(db, person("a@example.com", "admin"), fast);
        const b = await createUser(db, person("b@example.com", "admin"), fast);
        const results = await Promise.allSettled([
          updateUser(db, a.id, { role: "editor" }),
          updateUser(db, b.id, { disabled: true }),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const refused = results.find((r) => r.status === "rejected");
        expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: "last_admin" });
        const active = (await listUsers(db)).filter((u) => u.role === "admin" && !u.disabled);
        expect(active).toHaveLength(1);
      });
    });

    describe("verifyCredentials", () => {
      it("returns the user for the right password, whatever the email's case", async () => {
        const { db } = store();
        const user = await createUser(db, person("alice@example.com"), fast);
        expect((await verifyCredentials(db, " Alice@EXAMPLE.com", PASSWORD, fast))?.id).toBe(user.id);
      });

      it("answers null alike for a wrong password, an unknown email, a disabled user and junk", async () => {
        const { db } = store();
        const user = await createUser(db, person("alice@example.com"), fast);
        expect(await verifyCredentials(db, "alice@example.com", "wrong password!!", fast)).toBeNull();
        expect(await verifyCredentials(db, "nobody@example.com", PASSWORD, fast)).toBeNull();
        expect(await verifyCredentials(db, "", PASSWORD, fast)).toBeNull();
        expect(await verifyCredentials(db, "alice@example.com", "", fast)).toBeNull();
        expect(await verifyCredentials(db, "alice@example.com", "x".repeat(10_000), fast)).toBeNull();
        await createUser(db, person("admin@example.com", "admin"), fast);
        await updateUser(db, user.id, { disabled: true });
        expect(await verifyCredentials(db, "alice@example.com", PASSWORD, fast)).toBeNull();
      });

      it("rehashes a password stored at an older cost, keeping sessions", async () => {
        const { db } = store();
        const user = await createUser(db, person("alice@example.com"), fast);
        expect(needsRehash(await storedHash(db, user.id))).toBe(true);
        const signedIn = await verifyCredentials(db, "alice@example.com", PASSWORD); // production cost
        expect(signedIn?.sessionVersion).toBe(1);
        const rehashed = await storedHash(db, user.id);
        expect(
          rehashed.startsWith(
            `scrypt$${DEFAULT_SCRYPT_PARAMS.N}$${DEFAULT_SCRYPT_PARAMS.r}$${DEFAULT_SCRYPT_PARAMS.p}$`,
          ),
        ).toBe(true);
        expect((await verifyCredentials(db, "alice@example.com", PASSWORD))?.id).toBe(user.id);
      });
    });

    it("revokeSessions bumps the session version, and says when the user is unknown", async () => {
      const { db } = store();
      const user = await createUser(db, person("a@example.com"), fast);
      expect(await revokeSessions(db, user.id)).toBe(true);
      expect(await revokeSessions(db, user.id)).toBe(true);
      expect((await getUserById(db, user.id))?.sessionVersion).toBe(3);
      expect(await revokeSessions(db, "no-such-id")).toBe(false);
    });

    describe("ensureFirstAdmin", () => {
      it("creates the admin only while the store has no user", async () => {
        const { db } = store();
        const admin = await ensureFirstAdmin(db, { email: "Root@Example.com", password: PASSWORD }, fast);
        expect(admin).toMatchObject({ email: "root@example.com", role: "admin", name: "Administrator" });
        expect(await ensureFirstAdmin(db, { email: "other@example.com", password: PASSWORD }, fast)).toBeNull();
        expect((await listUsers(db)).map((u) => u.email)).toEqual(["root@example.com"]);
      });

      it("does nothing when users exist, even with no admin among them", async () => {
        const { db } = store();
        await createUser(db, person("viewer@example.com"), fast);
        expect(await ensureFirstAdmin(db, { email: "root@example.com", password: PASSWORD }, fast)).toBeNull();
      });

      it("creates one admin when two instances start together", async () => {
        const { db } = store();
        const results = await Promise.all([
          ensureFirstAdmin(db, { email: "root@example.com", password: PASSWORD }, fast),
          ensureFirstAdmin(db, { email: "root@example.com", password: PASSWORD }, fast),
        ]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await listUsers(db)).toHaveLength(1);
      });

      it("refuses a weak password with the policy's message", async () => {
        const { db } = store();
        expect(await zodMessages(ensureFirstAdmin(db, { email: "root@example.com", password: "admin" }, fast))).toEqual(
          ["password must be at least 12 characters"],
        );
      });
    });

    it("seedDemoUsers creates one account per role with the documented password, once", async () => {
      const { db } = store();
      const first = await seedDemoUsers(db, fast);
      expect(first.password).toBe(DEMO_PASSWORD);
      expect(first.created.map((u) => [u.email, u.role])).toEqual([
        ["admin@demo.test", "admin"],
        ["editor@demo.test", "editor"],
        ["viewer@demo.test", "viewer"],
        ["support@demo.test", "support"],
      ]);
      for (const demo of DEMO_USERS) {
        expect((await verifyCredentials(db, demo.email, DEMO_PASSWORD, fast))?.role).toBe(demo.role);
      }
      expect((await seedDemoUsers(db, fast)).created).toEqual([]);
      expect(await listUsers(db)).toHaveLength(4);
    });
  });
}
