// Signing in: throttling, the password check and the failure count, in that order, as one step per email.
// The answer is the same for an unknown email, a wrong password and a disabled user, after the same scrypt work.
import "server-only";

import type { Db } from "@/lib/db";

import { normalizeEmail } from "./fields";
import { checkLoginThrottle, clearLoginFailures, recordLoginFailure } from "./throttle";
import { getUserByEmail, verifyCredentials, type User } from "./users";

export type SignInResult =
  | { ok: true; user: User }
  /** `userId`: the account the email names, if any — for the audit log only, never for the answer. */
  | { ok: false; reason: "invalid_credentials"; userId: string | null }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number; limitedBy: "email" | "ip"; userId: string | null };

// Attempts for one email run one after another in this process, so that a burst cannot pass the throttle
// check together before any failure is counted. (Instances sharing PostgreSQL each serialise their own; a burst
// spread over N instances can get N - 1 extra tries.) On globalThis: one queue across Next's bundles.
const QUEUES_SLOT = Symbol.for("gatehouse.signInQueues");
const globalSlots = globalThis as unknown as Record<symbol, Map<string, Promise<unknown>> | undefined>;

function queues(): Map<string, Promise<unknown>> {
  globalSlots[QUEUES_SLOT] ??= new Map();
  return globalSlots[QUEUES_SLOT];
}

async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const pending = queues();
  const previous = pending.get(key) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(work);
  pending.set(key, current);
  try {
    return await current;
  } finally {
    if (pending.get(key) === current) pending.delete(key);
  }
}

export async function signIn(db: Db, attempt: { email: string; password: string; ip: string | null }): Promise<SignInResult> {
  const email = normalizeEmail(attempt.email);
  return oneAtATime(email, async () => {
    const decision = await checkLoginThrottle(db, { email, ip: attempt.ip });
    if (!decision.allowed) {
      const userId = (await getUserByEmail(db, email))?.id ?? null;
      return { ok: false, reason: "throttled", retryAfterSeconds: decision.retryAfterSeconds, limitedBy: decision.limitedBy, userId };
    }
    const user = await verifyCredentials(db, email, attempt.password);
    if (user) {
      await clearLoginFailures(db, email);
      return { ok: true, user };
    }
    await recordLoginFailure(db, { email, ip: attempt.ip });
    const userId = (await getUserByEmail(db, email))?.id ?? null;
    return { ok: false, reason: "invalid_credentials", userId };
  });
}
