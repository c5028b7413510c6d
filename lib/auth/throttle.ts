// Sign-in throttling that an attacker cannot turn against the account's owner (OWASP ASVS 5.0, 6.3.1):
//
// - a hard refusal only for what identifies the attacker: failures of one account FROM ONE CLIENT ADDRESS (5 in
//   15 minutes), and failures of any account from one address (20) — so the owner, from his own address, is
//   never refused because someone else guessed wrong elsewhere;
// - per account, whatever the address, only a progressive delay: after 5 failures in 15 minutes each attempt
//   waits 1 s, 2 s, 4 s… up to 10 s before its password is checked. It slows guessing without locking anyone out;
// - IPv6 addresses count per /64 (./address.ts); without TRUST_PROXY the address is unknown and only the delay
//   applies (and the cap on password hashes at once, ./sign-in.ts);
// - an admin's unlock or password reset clears the account's failures; a successful sign-in clears those of its
//   own address.
//
// Failures live in the store, so every portal instance sharing it counts the same ones. Old rows are pruned.
import "server-only";

import { sql } from "kysely";

import { isPostgres, writeTransaction, type Db } from "@/lib/db";

import { addressKey } from "./address";
import { normalizeEmail } from "@/lib/contract/accounts";

export interface ThrottleLimits {
  windowMs: number;
  /** Failures of one account from one address before that pair is refused. */
  maxFailuresPerAccountAddress: number;
  /** Failures of any account from one address before the address is refused. */
  maxFailuresPerAddress: number;
  /** Failures of one account, from anywhere, before its attempts are delayed. */
  delayAfterAccountFailures: number;
  /** The first delay; it doubles with each further failure, up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const LOGIN_THROTTLE: Readonly<ThrottleLimits> = Object.freeze({
  windowMs: 15 * 60_000,
  maxFailuresPerAccountAddress: 5,
  maxFailuresPerAddress: 20,
  delayAfterAccountFailures: 5,
  firstDelayMs: 1_000,
  maxDelayMs: 10_000,
});

/** `limitedBy`: "email" — this account from this address; "ip" — this address, any account. */
export type ThrottleDecision =
  { allowed: true; delayMs: number } | { allowed: false; retryAfterSeconds: number; limitedBy: "email" | "ip" };

export interface ThrottleOptions {
  now?: Date;
  limits?: ThrottleLimits;
}

// Emails are counted as typed (normalised), known or not; caps keep junk input from bloating the table.
function emailKey(email: string): string {
  return normalizeEmail(email).slice(0, 320);
}

export interface Attempt {
  email: string;
  /** The client's address as Gatehouse knows it (TRUST_PROXY), or null: then only the delay applies. */
  ip: string | null;
}

interface Counted {
  email: string;
  address: string | null;
  since: string;
}

function counted(attempt: Attempt, now: Date, limits: ThrottleLimits): Counted {
  return {
    email: emailKey(attempt.email),
    address: addressKey(attempt.ip),
    since: new Date(now.getTime() - limits.windowMs).toISOString(),
  };
}

/** The failure times of a key in the window, newest first, at most `limit`; `upToId` counts only rows up to it. */
async function failureTimes(
  db: Db,
  where: { email?: string; address?: string },
  since: string,
  limit: number,
  upToId?: number,
): Promise<number[]> {
  let query = db.selectFrom("login_failures").select("at").where("at", ">", since);
  if (where.email !== undefined) query = query.where("email", "=", where.email);
  if (where.address !== undefined) query = query.where("ip", "=", where.address);
  if (upToId !== undefined) query = query.where("id", "<=", upToId);
  const rows = await query.orderBy("at", "desc").limit(limit).execute();
  return rows.map((r) => Date.parse(r.at));
}

function waitMs(newestFirst: number[], limit: number, windowMs: number, now: Date): number | null {
  if (newestFirst.length < limit) return null;
  const oldestCounted = newestFirst[limit - 1];
  return oldestCounted === undefined ? null : oldestCounted + windowMs - now.getTime();
}

/** The progressive delay for an account with `failures` failures in the window. */
export function accountDelayMs(failures: number, limits: ThrottleLimits = LOGIN_THROTTLE): number {
  if (failures < limits.delayAfterAccountFailures) return 0;
  const doublings = Math.min(failures - limits.delayAfterAccountFailures, 30);
  return Math.min(limits.firstDelayMs * 2 ** doublings, limits.maxDelayMs);
}

/** The hard refusals: this account from this address, or this address at all. Unknown addresses have none. */
async function refusal(
  db: Db,
  c: Counted,
  limits: ThrottleLimits,
  now: Date,
  upToId?: number,
): Promise<ThrottleDecision | null> {
  if (c.address === null) return null;
  const waits: Array<{ limitedBy: "email" | "ip"; ms: number }> = [];
  const pair = await failureTimes(
    db,
    { email: c.email, address: c.address },
    c.since,
    limits.maxFailuresPerAccountAddress + 1,
    upToId,
  );
  const byAddress = await failureTimes(db, { address: c.address }, c.since, limits.maxFailuresPerAddress + 1, upToId);
  // With `upToId` the attempt's own reservation is among the rows: one more is allowed.
  const own = upToId === undefined ? 0 : 1;
  const pairWait = waitMs(pair.slice(own), limits.maxFailuresPerAccountAddress, limits.windowMs, now);
  if (pairWait !== null) waits.push({ limitedBy: "email", ms: pairWait });
  const addressWait = waitMs(byAddress.slice(own), limits.maxFailuresPerAddress, limits.windowMs, now);
  if (addressWait !== null) waits.push({ limitedBy: "ip", ms: addressWait });
  if (waits.length === 0) return null;
  const longest = waits.reduce((a, b) => (b.ms > a.ms ? b : a));
  return { allowed: false, limitedBy: longest.limitedBy, retryAfterSeconds: Math.max(1, Math.ceil(longest.ms / 1000)) };
}

/**
 * Whether a sign-in for this email from this address may be tried now, and after what delay. Refused: how long
 * until enough counted failures leave the window (for Retry-After). Ask before verifying the password.
 */
export async function checkLoginThrottle(
  db: Db,
  attempt: Attempt,
  { now = new Date(), limits = LOGIN_THROTTLE }: ThrottleOptions = {},
): Promise<ThrottleDecision> {
  const c = counted(attempt, now, limits);
  const refused = await refusal(db, c, limits, now);
  if (refused) return refused;
  const byAccount = await failureTimes(db, { email: c.email }, c.since, limits.delayAfterAccountFailures + 31);
  return { allowed: true, delayMs: accountDelayMs(byAccount.length, limits) };
}

/**
 * Counts the attempt as a failure before its password is checked, so that a burst of attempts sent at once
 * cannot all pass the throttle before any of them is counted: of attempts racing for the last tries of an
 * account and address, only those inserted first go on. Returns the reservation, or the refusal. A successful
 * sign-in takes its reservation back (`forgiveLoginAttempt`); a failed one leaves it as the failure's record.
 */
export async function reserveLoginAttempt(
  db: Db,
  attempt: Attempt,
  { now = new Date(), limits = LOGIN_THROTTLE }: ThrottleOptions = {},
): Promise<
  { reserved: true; id: number } | { reserved: false; decision: Extract<ThrottleDecision, { allowed: false }> }
> {
  const c = counted(attempt, now, limits);
  // One reservation at a time per address (or account, when the address is unknown): on PostgreSQL a row with a
  // lower id may commit after a higher one, so without the lock two racers could each miss the other's row.
  // SQLite's write transaction already runs one at a time.
  return writeTransaction(db, async (trx) => {
    if (isPostgres(trx))
      await sql`select pg_advisory_xact_lock(hashtext(${`gatehouse sign-in ${c.address ?? c.email}`}))`.execute(trx);
    const row = await trx
      .insertInto("login_failures")
      .values({ email: c.email, ip: c.address, at: now.toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    const refused = await refusal(trx, c, limits, now, id);
    if (refused && !refused.allowed) {
      // A refused attempt is not a failure: it must not prolong the wait.
      await trx.deleteFrom("login_failures").where("id", "=", id).execute();
      return { reserved: false, decision: refused };
    }
    return { reserved: true, id };
  });
}

/** The attempt failed: its reservation stays as the failure. Prunes failures past the window. */
export async function recordLoginFailure(
  db: Db,
  { now = new Date(), limits = LOGIN_THROTTLE }: ThrottleOptions = {},
): Promise<void> {
  await db
    .deleteFrom("login_failures")
    .where("at", "<=", new Date(now.getTime() - limits.windowMs).toISOString())
    .execute();
}

/** The attempt did not count after all (it succeeded, or it was never tried): its reservation goes. */
export async function releaseLoginAttempt(db: Db, id: number): Promise<void> {
  await db.deleteFrom("login_failures").where("id", "=", id).execute();
}

/**
 * A successful sign-in forgives the failures of its own account and address — its owner's typos. Failures of
 * the account from other addresses stay: someone else's guesses are not forgiven by the owner signing in.
 */
export async function forgiveLoginAttempt(db: Db, attempt: Attempt, id: number): Promise<void> {
  const email = emailKey(attempt.email);
  const address = addressKey(attempt.ip);
  let query = db.deleteFrom("login_failures").where("email", "=", email);
  query = address === null ? query.where("ip", "is", null) : query.where("ip", "=", address);
  await query.execute();
  await releaseLoginAttempt(db, id);
}

/** An admin's unlock or password reset: every failure of the account, from every address, is forgotten. */
export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.deleteFrom("login_failures").where("email", "=", emailKey(email)).execute();
}
