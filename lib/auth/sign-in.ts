// Signing in: throttling (./throttle.ts), the account's progressive delay, a slot to hash in, the password check,
// and the failure count, in that order. The answer is the same for an unknown email, a wrong password and a
// disabled user, after the same scrypt work.
//
// Password hashing is the one expensive thing an anonymous client can ask for, so at most
// MAX_CONCURRENT_HASHES sign-ins hash at once (about 0.3 s of a core each); the others wait in line at most
// HASH_WAIT_MS and are then answered 503 with Retry-After. A flood of sign-ins then costs a real sign-in a short
// wait or a quick "try again", never many seconds (the attack pass: 120 unknown emails, 40 at once, made a real
// sign-in take 8.3 s instead of 0.16 s).
import "server-only";

import { availableParallelism } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

import type { Db } from "@/lib/db";
import { logEvent } from "@/lib/log";

import { normalizeEmail } from "@/lib/contract/accounts";
import { processWide } from "@/lib/process-wide";
import {
  checkLoginThrottle,
  forgiveLoginAttempt,
  recordLoginFailure,
  releaseLoginAttempt,
  reserveLoginAttempt,
} from "./throttle";
import { getUserByEmail, verifyCredentials, type User } from "./users";

export type SignInResult =
  | { ok: true; user: User }
  /** `userId`: the account the email names, if any — for the audit log only, never for the answer. */
  | { ok: false; reason: "invalid_credentials"; userId: string | null }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number; limitedBy: "email" | "ip"; userId: string | null }
  /** No hashing slot came free in time: nothing was checked or counted; answered 503 with Retry-After. */
  | { ok: false; reason: "busy"; retryAfterSeconds: number };

/** Sign-ins hashing at once: one per core, and at least 2 (scrypt runs on libuv's pool of 4 threads). */
export const MAX_CONCURRENT_HASHES = Math.max(2, Math.min(availableParallelism(), 4));
/** How long a sign-in waits for a hashing slot before it is answered 503. */
export const HASH_WAIT_MS = 2_000;
/** Retry-After of that 503. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

interface HashSlots {
  active: number;
  waiting: Array<() => void>;
}

// One limit for the process, whichever bundle serves the sign-in.
function slots(): HashSlots {
  return processWide<HashSlots>("signIn.hashSlots", () => ({ active: 0, waiting: [] }));
}

/** Runs `work` in a hashing slot, waiting for one at most `waitMs`; false when none came free in time. */
async function inHashSlot<T>(
  work: () => Promise<T>,
  waitMs = HASH_WAIT_MS,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const state = slots();
  if (state.active >= MAX_CONCURRENT_HASHES) {
    const granted = await new Promise<boolean>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        state.waiting.splice(state.waiting.indexOf(wake), 1);
        resolve(false);
      }, waitMs);
      state.waiting.push(wake);
    });
    // A slot handed over by a finishing sign-in is already counted as ours.
    if (!granted) return { ran: false };
  } else {
    state.active += 1;
  }
  try {
    return { ran: true, value: await work() };
  } finally {
    // Newest first: under a flood the line is mostly attempts already near their deadline, and serving the one
    // that just arrived gives a person signing in now a real chance, where first-come-first-served would make
    // every newcomer wait behind the whole flood and time out (adaptive LIFO, as load-shedding servers do).
    const next = state.waiting.pop();
    if (next) next();
    else state.active -= 1;
  }
}

/**
 * Answers "busy" when no hashing slot came free in time; the attempt is then not counted. `secondStepFollows`:
 * the right password is only half a sign-in for this user (he has a second factor), so it does not forgive the
 * account's failures from this address — they include his wrong codes, and a known password must not reset
 * their count (lib/auth/factors/proof.ts forgives them when the second step succeeds).
 */
export async function signIn(
  db: Db,
  attempt: { email: string; password: string; ip: string | null },
  { secondStepFollows }: { secondStepFollows?: (user: User) => Promise<boolean> } = {},
): Promise<SignInResult> {
  const email = normalizeEmail(attempt.email);
  const who = { email, ip: attempt.ip };
  const userIdOf = async () => (await getUserByEmail(db, email))?.id ?? null;

  const decision = await checkLoginThrottle(db, who);
  if (!decision.allowed)
    return {
      ok: false,
      reason: "throttled",
      retryAfterSeconds: decision.retryAfterSeconds,
      limitedBy: decision.limitedBy,
      userId: await userIdOf(),
    };
  const reservation = await reserveLoginAttempt(db, who);
  if (!reservation.reserved) {
    const { retryAfterSeconds, limitedBy } = reservation.decision;
    return { ok: false, reason: "throttled", retryAfterSeconds, limitedBy, userId: await userIdOf() };
  }

  // The account has failed often lately: slow down every attempt on it, from anywhere, without refusing any.
  if (decision.delayMs > 0) await sleep(decision.delayMs);

  const checked = await inHashSlot(() => verifyCredentials(db, email, attempt.password));
  if (!checked.ran) {
    await releaseLoginAttempt(db, reservation.id);
    logEvent("warn", "sign_in_busy", { max_concurrent_hashes: MAX_CONCURRENT_HASHES, waited_ms: HASH_WAIT_MS });
    return { ok: false, reason: "busy", retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
  }
  if (checked.value) {
    if (secondStepFollows && (await secondStepFollows(checked.value))) await releaseLoginAttempt(db, reservation.id);
    else await forgiveLoginAttempt(db, who, reservation.id);
    return { ok: true, user: checked.value };
  }
  await recordLoginFailure(db);
  return { ok: false, reason: "invalid_credentials", userId: await userIdOf() };
}
