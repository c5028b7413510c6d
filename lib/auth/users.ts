// Users: with ./sso-users.ts (the users of single sign-on), the only module that reads or writes the users table.
// Inputs are validated here with the shared field schemas (lib/contract/accounts.ts, lib/auth/password.ts); the
// password hash never leaves this file.
import "server-only";

import { randomUUID } from "node:crypto";

import { sql } from "kysely";
import { z } from "zod";

import { hasBrand } from "@/lib/brand";
import { isPostgres, writeTransaction, type Db } from "@/lib/db";
import type { UserRow } from "@/lib/db/schema";

import { normalizeEmail, UserCreateBodySchema, UserUpdateBodySchema } from "@/lib/contract/accounts";
import { checkPasswordFor, onlyWhenValidSoFar, passwordProblem } from "@/lib/contract/password";
import {
  DEFAULT_SCRYPT_PARAMS,
  hashPassword,
  needsRehash,
  unmatchableHash,
  verifyPassword,
  type ScryptParams,
} from "./password";
import type { Role } from "@/lib/contract/values";
import { clearLoginFailures } from "./throttle";
import { forgetUser } from "./user-cache";

/** A user as the rest of the app sees him: everything but the password hash. */
export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  /** Sessions carry the version they started with; a different one here means they were ended. */
  sessionVersion: number;
  /** A service account: no password, never signs in; acts through API tokens an admin makes for it. */
  service: boolean;
  createdAt: string;
  updatedAt: string;
  /** Single sign-on: the provider's issuer and subject (`sub`) he is matched by; null for a password user. */
  identity: { issuer: string; subject: string } | null;
  /** An admin pinned his role: single sign-ons no longer take it from the provider's groups. */
  rolePinned: boolean;
  /** When he last signed in (password or single sign-on); null before the first time. */
  lastSignInAt: string | null;
  /** The IANA time zone he picked on the account page; null: his browser's (lib/auth/time-zone.ts). */
  timeZone: string | null;
}

export type AccountErrorCode =
  "email_taken" | "user_not_found" | "last_admin" | "sso_managed" | "service_account" | "identity_taken";

const ACCOUNT_ERROR: unique symbol = Symbol.for("gatehouse.AccountError");

/**
 * A refusal the person can act on (suggested HTTP status: email_taken 409, user_not_found 404, last_admin 409,
 * sso_managed 400 — a password for a user who signs in with single sign-on; service_account 400 — a password for a
 * service account, which never signs in; identity_taken 409 — a provider identity another user has).
 */
export class AccountError extends Error {
  readonly [ACCOUNT_ERROR] = true;
  override name = "AccountError";
  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** An AccountError of any copy of this module (see lib/brand.ts: never `instanceof`). */
export function isAccountError(error: unknown, code?: AccountErrorCode): error is AccountError {
  return hasBrand(error, ACCOUNT_ERROR) && (code === undefined || (error as AccountError).code === code);
}

export interface UserStoreOptions {
  now?: Date;
  /** scrypt cost for new hashes; the default is the production cost (tests may pass a cheaper one). */
  hashParams?: ScryptParams;
}

// The input schemas are the admin API's own (lib/contract/accounts.ts); the repository adds the password's
// strength rules, which need the account (its email and name) and a dictionary.
const createUserWithPolicy = UserCreateBodySchema.superRefine(
  (input, ctx) => checkPasswordFor(input.password, input, ctx),
  {
    when: onlyWhenValidSoFar,
  },
);
export type CreateUserInput = z.input<typeof UserCreateBodySchema>;
export type UpdateUserInput = z.input<typeof UserUpdateBodySchema>;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: Number(row.disabled) === 1,
    sessionVersion: Number(row.session_version),
    service: Number(row.service) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    identity:
      row.oidc_issuer !== null && row.oidc_subject !== null
        ? { issuer: row.oidc_issuer, subject: row.oidc_subject }
        : null,
    rolePinned: Number(row.role_pinned) === 1,
    lastSignInAt: row.last_sign_in_at,
    timeZone: row.time_zone,
  };
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505"; // better-sqlite3 | PostgreSQL unique_violation
}

export async function createUser(db: Db, input: CreateUserInput, options: UserStoreOptions = {}): Promise<User> {
  return insertUser(db, createUserWithPolicy.parse(input), options);
}

async function insertUser(
  db: Db,
  input: z.output<typeof UserCreateBodySchema>,
  options: UserStoreOptions,
): Promise<User> {
  const { email, name, role, password } = input;
  const now = (options.now ?? new Date()).toISOString();
  // A service account gets a hash no password matches: it cannot sign in, whatever is tried.
  const params = options.hashParams ?? DEFAULT_SCRYPT_PARAMS;
  const passwordHash = password === undefined ? unmatchableHash(params) : await hashPassword(password, params);
  try {
    const row = await db
      .insertInto("users")
      .values({
        id: randomUUID(),
        email,
        name,
        role,
        password_hash: passwordHash,
        disabled: 0,
        session_version: 1,
        service: input.service === true ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUser(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AccountError("email_taken", `a user with email ${email} already exists`);
    throw error;
  }
}

export async function listUsers(db: Db): Promise<User[]> {
  const rows = await db.selectFrom("users").selectAll().orderBy("email").execute();
  return rows.map(toUser);
}

export async function getUserById(db: Db, id: string): Promise<User | null> {
  const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function getUserByEmail(db: Db, email: string): Promise<User | null> {
  const row = await db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
  return row ? toUser(row) : null;
}

/**
 * Changes a user. Changing the role or the password, or disabling him, ends all his sessions (session_version
 * + 1). Refuses (AccountError "last_admin") to demote or disable the last admin who can sign in, and a password
 * for a user who signs in with single sign-on ("sso_managed") or a service account ("service_account"). A role set by hand on such a user is
 * pinned, unless `role_pinned` says otherwise: the next sign-in would take it from his groups again.
 */
export async function updateUser(
  db: Db,
  id: string,
  patch: UpdateUserInput,
  options: UserStoreOptions = {},
): Promise<User> {
  const input = UserUpdateBodySchema.parse(patch);
  if (input.password !== undefined) {
    // The new password is checked against the account it is for; an unknown id is refused below.
    const account = await getUserById(db, id);
    if (account?.identity) {
      throw new AccountError(
        "sso_managed",
        `${account.email} signs in with single sign-on, so a password cannot be set for this account`,
      );
    }
    if (account?.service) {
      // It would be stored and never used (a service account never signs in): say so rather than answer 200.
      throw new AccountError(
        "service_account",
        `service accounts have no password: ${account.email} never signs in and acts only through the API tokens an admin makes for it`,
      );
    }
    const problem =
      account && passwordProblem(input.password, { email: account.email, name: input.name ?? account.name });
    if (problem)
      throw new z.ZodError([{ code: "custom", path: ["password"], message: problem, input: input.password }]);
  }
  const now = (options.now ?? new Date()).toISOString();
  // Hash before the transaction: scrypt is slow and must not hold row locks.
  const passwordHash =
    input.password === undefined
      ? undefined
      : await hashPassword(input.password, options.hashParams ?? DEFAULT_SCRYPT_PARAMS);
  const mayRemoveAnAdmin = (input.role !== undefined && input.role !== "admin") || input.disabled === true;
  const lockRows = isPostgres(db); // SQLite has no FOR UPDATE; writeTransaction holds its write lock instead

  // Every instance's copy of the user (for session checks) goes once the change is committed, even a refused one.
  return writeTransaction(db, async (trx) => {
    // Lock the admins who can sign in first, always in id order, so two concurrent demotions queue instead of
    // both seeing the other admin still active (or deadlocking).
    const activeAdmins = mayRemoveAnAdmin ? await selectSignInAdminIds(trx, lockRows) : [];

    let currentQuery = trx.selectFrom("users").selectAll().where("id", "=", id);
    if (lockRows) currentQuery = currentQuery.forUpdate();
    const current = await currentQuery.executeTakeFirst();
    if (!current) throw new AccountError("user_not_found", `no user with id ${id}`);

    if (mayRemoveAnAdmin && activeAdmins.includes(id) && !activeAdmins.some((adminId) => adminId !== id)) {
      throw new AccountError(
        "last_admin",
        `${current.email} is the last admin who can sign in: make another person admin before demoting or disabling this one (a service account does not count)`,
      );
    }

    const roleChanges = input.role !== undefined && input.role !== current.role;
    const pinned = input.role_pinned ?? (roleChanges && current.oidc_subject !== null ? true : undefined);
    const endsSessions =
      roleChanges || (input.disabled === true && Number(current.disabled) === 0) || passwordHash !== undefined;

    const row = await trx
      .updateTable("users")
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.role !== undefined && { role: input.role }),
        ...(pinned !== undefined && { role_pinned: pinned ? 1 : 0 }),
        ...(input.disabled !== undefined && { disabled: input.disabled ? 1 : 0 }),
        ...(passwordHash !== undefined && { password_hash: passwordHash }),
        ...(endsSessions && { session_version: sql<number>`session_version + 1` }),
        updated_at: now,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    // A new password starts with a clean slate: an admin's reset lifts any sign-in throttling of the account.
    if (passwordHash !== undefined) await clearLoginFailures(trx, row.email);
    return toUser(row);
  }).finally(() => forgetUser(id));
}

/** The admins someone can sign in as: not disabled, and not service accounts (which have no way in but tokens). */
async function selectSignInAdminIds(trx: Db, lockRows: boolean): Promise<string[]> {
  let query = trx
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .where("disabled", "=", 0)
    .where("service", "=", 0)
    .orderBy("id");
  if (lockRows) query = query.forUpdate();
  return (await query.execute()).map((r) => r.id);
}

/** Notes a password sign-in (the users page shows when each user last signed in). */
export async function recordSignIn(db: Db, id: string, now: Date = new Date()): Promise<void> {
  await db.updateTable("users").set({ last_sign_in_at: now.toISOString() }).where("id", "=", id).execute();
}

/** Keeps the time zone he picked (an IANA name, validated by the caller), or null for his browser's. */
export async function setUserTimeZone(db: Db, id: string, timeZone: string | null): Promise<User | null> {
  await db.updateTable("users").set({ time_zone: timeZone }).where("id", "=", id).execute();
  forgetUser(id);
  return getUserById(db, id);
}

/** Ends every session of the user (logout): the session_version his cookies carry no longer matches. */
export async function revokeSessions(
  db: Db,
  id: string,
  options: Pick<UserStoreOptions, "now"> = {},
): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ session_version: sql<number>`session_version + 1`, updated_at: (options.now ?? new Date()).toISOString() })
    .where("id", "=", id)
    .executeTakeFirst();
  forgetUser(id);
  return result.numUpdatedRows > 0n;
}

// Verified against when the email is unknown, so that answer costs the same scrypt work as a wrong password; the
// hash of a user of single sign-on, who has no password.
export const UNMATCHABLE_HASH = unmatchableHash();

/**
 * The user for this email and password, or null — the same null, after the same scrypt work, whether the
 * email is unknown, the password wrong, or the user disabled. Rehashes a password stored with an older cost.
 */
export async function verifyCredentials(
  db: Db,
  email: string,
  password: string,
  options: UserStoreOptions = {},
): Promise<User | null> {
  const params = options.hashParams ?? DEFAULT_SCRYPT_PARAMS;
  const row =
    typeof email === "string" && email.trim() !== ""
      ? await db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst()
      : undefined;
  const dummy = params === DEFAULT_SCRYPT_PARAMS ? UNMATCHABLE_HASH : unmatchableHash(params);
  const matches = await verifyPassword(typeof password === "string" ? password : "", row?.password_hash ?? dummy);
  if (!row || !matches || Number(row.disabled) !== 0 || Number(row.service) === 1) return null;

  if (needsRehash(row.password_hash, params)) {
    // Same password, stronger hash: sessions stay valid.
    await db
      .updateTable("users")
      .set({ password_hash: await hashPassword(password, params) })
      .where("id", "=", row.id)
      .execute();
  }
  return toUser(row);
}

/** Creates the first admin from ADMIN_EMAIL/ADMIN_PASSWORD when the store holds no user; otherwise null. */
export async function ensureFirstAdmin(
  db: Db,
  admin: { email: string; password: string; name?: string },
  options: UserStoreOptions = {},
): Promise<User | null> {
  const anyone = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (anyone) return null;
  try {
    return await createUser(db, { ...admin, name: admin.name ?? "Administrator", role: "admin" }, options);
  } catch (error) {
    // Another instance starting at the same moment created it first.
    if (isAccountError(error, "email_taken")) return null;
    throw error;
  }
}

/**
 * Demo mode's fixed, documented password. Fixed rather than generated so the README can name it: demo mode
 * listens on 127.0.0.1 only, and these accounts exist nowhere else.
 */
export const DEMO_PASSWORD = "gatehouse-demo";

export const DEMO_USERS: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: "admin@demo.test", name: "Demo Admin", role: "admin" },
  { email: "editor@demo.test", name: "Demo Editor", role: "editor" },
  { email: "viewer@demo.test", name: "Demo Viewer", role: "viewer" },
  { email: "support@demo.test", name: "Demo Support", role: "support" },
];

/** Creates whichever demo account is missing (one per role). Existing accounts are left as they are. */
export async function seedDemoUsers(
  db: Db,
  options: UserStoreOptions = {},
): Promise<{ password: string; created: User[] }> {
  const created: User[] = [];
  for (const demo of DEMO_USERS) {
    if (await getUserByEmail(db, demo.email)) continue;
    try {
      // The demo password is public by design (demo mode serves loopback only): it is exempt from the strength
      // rules that would refuse it for naming the product, and from nothing else.
      created.push(await insertUser(db, UserCreateBodySchema.parse({ ...demo, password: DEMO_PASSWORD }), options));
    } catch (error) {
      if (!isAccountError(error, "email_taken")) throw error;
    }
  }
  return { password: DEMO_PASSWORD, created };
}
