// Login throttling: at most 5 failed sign-ins per email and 20 per client IP within 15 minutes. Failures live
// in the store, so every portal instance sharing it counts the same ones. Old rows are pruned as we go.
import "server-only";

import type { Db } from "@/lib/db";

import { normalizeEmail } from "./fields";

export interface ThrottleLimits {
  windowMs: number;
  maxFailuresPerEmail: number;
  maxFailuresPerIp: number;
}

export const LOGIN_THROTTLE: Readonly<ThrottleLimits> = Object.freeze({
  windowMs: 15 * 60_000,
  maxFailuresPerEmail: 5,
  maxFailuresPerIp: 20,
});

export type ThrottleDecision =
  | { allowed: true }
  | { allowed: false; retryAfterSeconds: number; limitedBy: "email" | "ip" };

export interface ThrottleOptions {
  now?: Date;
  limits?: ThrottleLimits;
}

// Emails are counted as typed (normalised), known or not; caps keep junk input from bloating the table.
function emailKey(email: string): string {
  return normalizeEmail(email).slice(0, 320);
}
function ipKey(ip: string | null): string | null {
  return ip === null ? null : ip.trim().slice(0, 64);
}

interface Attempt {
  email: string;
  /** null when the client address is unknown: only the email limit applies. */
  ip: string | null;
}

/**
 * Whether a sign-in for this email from this IP may be tried now. When not, retryAfterSeconds is how long until
 * enough counted failures leave the window (for Retry-After). Ask before verifying the password.
 */
export async function checkLoginThrottle(
  db: Db,
  attempt: Attempt,
  { now = new Date(), limits = LOGIN_THROTTLE }: ThrottleOptions = {},
): Promise<ThrottleDecision> {
  const since = new Date(now.getTime() - limits.windowMs).toISOString();
  const email = emailKey(attempt.email);

  const byEmail = await failureTimes(db, "email", email, since, limits.maxFailuresPerEmail);
  const ip = ipKey(attempt.ip);
  const byIp = ip === null ? [] : await failureTimes(db, "ip", ip, since, limits.maxFailuresPerIp);

  const waits: Array<{ limitedBy: "email" | "ip"; ms: number }> = [];
  const emailWait = waitMs(byEmail, limits.maxFailuresPerEmail, limits.windowMs, now);
  if (emailWait !== null) waits.push({ limitedBy: "email", ms: emailWait });
  const ipWait = waitMs(byIp, limits.maxFailuresPerIp, limits.windowMs, now);
  if (ipWait !== null) waits.push({ limitedBy: "ip", ms: ipWait });
  if (waits.length === 0) return { allowed: true };

  const longest = waits.reduce((a, b) => (b.ms > a.ms ? b : a));
  return { allowed: false, limitedBy: longest.limitedBy, retryAfterSeconds: Math.max(1, Math.ceil(longest.ms / 1000)) };
}

// The newest `limit` failures in the window, newest first: when there are `limit` of them, the attempt is
// refused until the oldest of these leaves the window.
async function failureTimes(db: Db, column: "email" | "ip", value: string, since: string, limit: number) {
  const rows = await db
    .selectFrom("login_failures")
    .select("at")
    .where(column, "=", value)
    .where("at", ">", since)
    .orderBy("at", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => Date.parse(r.at));
}

function waitMs(newestFirst: number[], limit: number, windowMs: number, now: Date): number | null {
  if (newestFirst.length < limit) return null;
  const oldestCounted = newestFirst[limit - 1];
  return oldestCounted === undefined ? null : oldestCounted + windowMs - now.getTime();
}

/** Counts one failed sign-in (wrong password or unknown email alike), and prunes failures past the window. */
export async function recordLoginFailure(
  db: Db,
  attempt: Attempt,
  { now = new Date(), limits = LOGIN_THROTTLE }: ThrottleOptions = {},
): Promise<void> {
  await db
    .insertInto("login_failures")
    .values({ email: emailKey(attempt.email), ip: ipKey(attempt.ip), at: now.toISOString() })
    .execute();
  await db
    .deleteFrom("login_failures")
    .where("at", "<=", new Date(now.getTime() - limits.windowMs).toISOString())
    .execute();
}

/**
 * A successful sign-in forgives the email's failures: they were its owner's typos, so they stop counting for
 * his IP too. Failures of other emails from that IP stay counted.
 */
export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.deleteFrom("login_failures").where("email", "=", emailKey(email)).execute();
}
