// Single sign-on sessions in the store: the only module that reads or writes sso_sessions. The session cookie
// (iron-session) carries only the row's id; the refresh token and the ID token stay on the server, sealed
// (lib/seal.ts), so neither a copy of the cookie nor a copy of the database gives them away. A row is what the
// re-check (./recheck.ts) and the provider's logout need; deleting it ends that one session. A session the
// provider's groups ended stays, without its tokens, marked with the claim and values read, until its absolute end:
// each of the user's sessions then says why it ended.
import "server-only";

import { randomUUID } from "node:crypto";

import type { Db } from "@/lib/db";
import { sealer } from "@/lib/seal";

export interface SsoSession {
  id: string;
  userId: string;
  issuer: string;
  subject: string;
  /** null: the provider gave none (a re-check is then a silent sign-in), or it was sealed with a dropped secret. */
  refreshToken: string | null;
  idToken: string | null;
  /** Epoch ms: the last time the provider vouched for the user. */
  checkedAt: number;
  /** Epoch ms: a re-check in progress, or a failed one's back-off; null when none. */
  leaseUntil: number | null;
  expiresAt: number;
  /** Ended because the provider's groups gave the user no role any more: the claim read and its values. */
  endedNoRole: NoRole | null;
}

/** What the provider said when its groups gave no role: the role claim's name and the values it held. */
export interface NoRole {
  claim: string;
  values: string[];
}

// Refresh and ID tokens in the store, under keys from SESSION_SECRET: sealed with the newest, opened with any listed.
const tokenSealer = sealer("gatehouse sso tokens");

const seal = (value: string | null, secrets: readonly string[]) =>
  value === null ? null : tokenSealer.seal(value, secrets);
const open = (value: string | null, secrets: readonly string[]) =>
  value === null ? null : tokenSealer.open(value, secrets);
const iso = (ms: number) => new Date(ms).toISOString();

export async function createSsoSession(
  db: Db,
  secrets: readonly string[],
  session: {
    userId: string;
    issuer: string;
    subject: string;
    refreshToken: string | null;
    idToken: string | null;
    now: number;
    expiresAt: number;
  },
): Promise<string> {
  const id = randomUUID();
  // Rows of sessions past their absolute end are of no use: cleared here, where rows are made.
  await db.deleteFrom("sso_sessions").where("expires_at", "<", iso(session.now)).execute();
  await db
    .insertInto("sso_sessions")
    .values({
      id,
      user_id: session.userId,
      issuer: session.issuer,
      subject: session.subject,
      refresh_token_sealed: seal(session.refreshToken, secrets),
      id_token_sealed: seal(session.idToken, secrets),
      created_at: iso(session.now),
      checked_at: iso(session.now),
      check_lease_until: null,
      expires_at: iso(session.expiresAt),
      ended_no_role: null,
    })
    .execute();
  return id;
}

export async function getSsoSession(db: Db, secrets: readonly string[], id: string): Promise<SsoSession | null> {
  const row = await db.selectFrom("sso_sessions").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    issuer: row.issuer,
    subject: row.subject,
    refreshToken: open(row.refresh_token_sealed, secrets),
    idToken: open(row.id_token_sealed, secrets),
    checkedAt: Date.parse(row.checked_at),
    leaseUntil: row.check_lease_until === null ? null : Date.parse(row.check_lease_until),
    expiresAt: Date.parse(row.expires_at),
    endedNoRole: row.ended_no_role === null ? null : (JSON.parse(row.ended_no_role) as NoRole),
  };
}

/**
 * Takes the re-check of this session for `leaseMs`, unless another request (in any process) holds it: only one
 * request uses a refresh token at a time, since providers that rotate them revoke the grant when one is reused.
 */
export async function claimCheck(db: Db, id: string, now: number, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable("sso_sessions")
    .set({ check_lease_until: iso(now + leaseMs) })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("check_lease_until", "is", null), eb("check_lease_until", "<", iso(now))]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The provider vouched for the user again: new tokens (when it rotated them), checked now, lease released. */
export async function confirmSsoSession(
  db: Db,
  secrets: readonly string[],
  id: string,
  update: { refreshToken: string | null; idToken: string | null; now: number },
): Promise<void> {
  await db
    .updateTable("sso_sessions")
    .set({
      refresh_token_sealed: seal(update.refreshToken, secrets),
      ...(update.idToken !== null && { id_token_sealed: seal(update.idToken, secrets) }),
      checked_at: iso(update.now),
      check_lease_until: null,
    })
    .where("id", "=", id)
    .execute();
}

/** A re-check that could not reach the provider: the next attempt waits until `until`. */
export async function postponeCheck(db: Db, id: string, until: number): Promise<void> {
  await db
    .updateTable("sso_sessions")
    .set({ check_lease_until: iso(until) })
    .where("id", "=", id)
    .execute();
}

export async function endSsoSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom("sso_sessions").where("id", "=", id).execute();
}

/** Every single sign-on session of the user (sign-out ends all his sessions, as does losing his access). */
export async function endUserSsoSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("sso_sessions").where("user_id", "=", userId).execute();
}

/** Every single sign-on session of the user, ended because the provider's groups give him no role any more. */
export async function endUserSsoSessionsForNoRole(db: Db, userId: string, noRole: NoRole): Promise<void> {
  await db
    .updateTable("sso_sessions")
    .set({
      ended_no_role: JSON.stringify(noRole),
      refresh_token_sealed: null,
      id_token_sealed: null,
      check_lease_until: null,
    })
    .where("user_id", "=", userId)
    .execute();
}
