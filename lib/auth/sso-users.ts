// The users of single sign-on: matched by the provider's (issuer, subject), created at their first sign-in,
// updated from the provider's profile, or linked to an existing password account on an operator's word. They
// have no password (./users.ts keeps the hash, and the rest of the users table).
import "server-only";

import { randomUUID } from "node:crypto";

import { sql } from "kysely";

import type { Db } from "@/lib/db";

import { normalizeEmail } from "@/lib/contract/accounts";
import type { Role } from "@/lib/contract/values";
import { forgetUser } from "./user-cache";
import { AccountError, isUniqueViolation, toUser, UNMATCHABLE_HASH, type User } from "./users";

export async function getUserByIdentity(db: Db, issuer: string, subject: string): Promise<User | null> {
  const row = await db
    .selectFrom("users")
    .selectAll()
    .where("oidc_issuer", "=", issuer)
    .where("oidc_subject", "=", subject)
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

/** Who the provider says signed in: the issuer and subject match him; email and name are his profile there. */
export interface ProviderProfile {
  issuer: string;
  subject: string;
  email: string;
  name: string;
}

/**
 * Creates the user of a first single sign-on, matched from now on by (issuer, subject). He has no password (an
 * unmatchable hash: a password sign-in as him costs the usual work and fails). An existing account with his email
 * is never taken over: AccountError "email_taken". Two first sign-ins at once both get the one user.
 */
export async function createSsoUser(
  db: Db,
  profile: ProviderProfile,
  role: Role,
  now: Date = new Date(),
): Promise<User> {
  const at = now.toISOString();
  try {
    const row = await db
      .insertInto("users")
      .values({
        id: randomUUID(),
        email: normalizeEmail(profile.email),
        name: profile.name,
        role,
        password_hash: UNMATCHABLE_HASH,
        disabled: 0,
        session_version: 1,
        created_at: at,
        updated_at: at,
        oidc_issuer: profile.issuer,
        oidc_subject: profile.subject,
        role_pinned: 0,
        last_sign_in_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUser(row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const same = await getUserByIdentity(db, profile.issuer, profile.subject);
    if (same) return same;
    throw new AccountError("email_taken", `a user with email ${normalizeEmail(profile.email)} already exists`);
  }
}

/**
 * What a single sign-on (or its re-check) tells about a known user: his email and name at the provider, and his
 * role from its groups (`role` undefined: pinned, or not to change). No session ends: the provider just vouched
 * for him. An email another account holds is not taken: the old one stays (`emailKept`).
 */
export async function updateFromProvider(
  db: Db,
  id: string,
  patch: { email?: string; name?: string; role?: Role },
  { now = new Date(), signedIn = false }: { now?: Date; signedIn?: boolean } = {},
): Promise<{ user: User; emailKept: boolean }> {
  const at = now.toISOString();
  const write = (withEmail: boolean) =>
    db
      .updateTable("users")
      .set({
        ...(withEmail && patch.email !== undefined && { email: normalizeEmail(patch.email) }),
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.role !== undefined && { role: patch.role }),
        ...(signedIn && { last_sign_in_at: at }),
        updated_at: at,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
  let row;
  let emailKept = false;
  try {
    row = await write(true);
  } catch (error) {
    if (!isUniqueViolation(error) || patch.email === undefined) throw error;
    emailKept = true;
    row = await write(false);
  }
  forgetUser(id);
  if (!row) throw new AccountError("user_not_found", `no user with id ${id}`);
  return { user: toUser(row), emailKept };
}

/**
 * Links a password account to the provider's identity, on an operator's word (`npm run users -- link-sso`): from
 * now on it is matched by (issuer, subject) and signs in only with single sign-on — its password is removed, its
 * sessions end, and its role comes from the groups at the next sign-in. What resolves a first sign-in refused
 * because the account's email was taken: Gatehouse never links by email on its own.
 */
export async function linkIdentity(
  db: Db,
  id: string,
  identity: { issuer: string; subject: string },
  now: Date = new Date(),
): Promise<User> {
  try {
    const row = await db
      .updateTable("users")
      .set({
        oidc_issuer: identity.issuer,
        oidc_subject: identity.subject,
        password_hash: UNMATCHABLE_HASH,
        role_pinned: 0,
        session_version: sql<number>`session_version + 1`,
        updated_at: now.toISOString(),
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new AccountError("user_not_found", `no user with id ${id}`);
    return toUser(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AccountError(
        "identity_taken",
        `another user already signs in as ${identity.subject} at ${identity.issuer}`,
      );
    throw error;
  } finally {
    forgetUser(id);
  }
}
