// The step-up (issue 36): a sensitive action (an operation marked `stepUp`, lib/api/operations/types.ts) needs a
// proof that this is the person at most STEP_UP_MINUTES old — the sign-in, or a proof given since through POST
// /api/auth/step-up (a passkey, an authenticator code, a recovery code or the password). Someone who finds a
// signed-in browser left open, or holds a stolen cookie, cannot then set a key, make a token or change a role
// without what only the person has. The rule and its words, with no I/O but the read of what he has enrolled.
import "server-only";

import type { Db } from "@/lib/db";
import { STEP_UP_MINUTES, type ProofMethod } from "@/lib/contract/values";

import type { SessionData } from "../session";
import type { User } from "../users";
import { factorSummary } from "./summary";

const STEP_UP_MS = STEP_UP_MINUTES * 60_000;

/** When he last proved it is he: a step-up, else the sign-in (sessions sealed before issue 36 have no verifiedAt). */
export function lastProofAt(session: Pick<SessionData, "issuedAt" | "verifiedAt">): number {
  return session.verifiedAt ?? session.issuedAt;
}

/** Whether a sensitive action must first ask for a proof: the last one is more than STEP_UP_MINUTES old. */
export function stepUpDue(session: Pick<SessionData, "issuedAt" | "verifiedAt">, now: number = Date.now()): boolean {
  return now - lastProofAt(session) > STEP_UP_MS;
}

/** The session once he gave a proof now: the same session (same start, same single sign-on), just proven. */
export function sessionAfterStepUp(session: SessionData, now: number = Date.now()): SessionData {
  return { ...session, verifiedAt: now };
}

/**
 * The proofs he can give: what he enrolled, and the password unless he signs in with single sign-on (he has no
 * password here). A recovery code counts only beside a passkey or an authenticator app, as at sign-in.
 */
export async function stepUpMethods(
  db: Db,
  user: Pick<User, "id" | "identity">,
  session: Pick<SessionData, "ssoSessionId">,
): Promise<ProofMethod[]> {
  const summary = await factorSummary(db, user.id);
  const secondFactor = summary.passkeys > 0 || summary.totp;
  return [
    ...(summary.passkeys > 0 ? (["passkey"] as const) : []),
    ...(summary.totp ? (["totp"] as const) : []),
    ...(secondFactor && summary.recovery_codes_left > 0 ? (["recovery"] as const) : []),
    ...(user.identity === null && session.ssoSessionId === undefined ? (["password"] as const) : []),
  ];
}

const WORDS: Record<ProofMethod, string> = {
  passkey: "a passkey",
  totp: "an authenticator code",
  recovery: "a recovery code",
  password: "your password",
};

/** The sentence of a 403 step_up_required: what he can do about it, with what he has. */
export function stepUpSentence(methods: readonly ProofMethod[]): string {
  const since = `This needs a fresh proof that it is you: your last one (the sign-in or a confirmation) is more than ${STEP_UP_MINUTES} minutes old.`;
  if (methods.length === 0)
    return `${since} Sign out and sign in again with single sign-on, then do this within ${STEP_UP_MINUTES} minutes (or add a passkey or an authenticator app on Account → Security to confirm without signing out).`;
  const ways = methods.map((method) => WORDS[method]);
  const list = ways.length === 1 ? ways[0] : `${ways.slice(0, -1).join(", ")} or ${ways.at(-1)}`;
  const sso = methods.includes("password") ? "" : " (or sign in again with single sign-on)";
  return `${since} Confirm with ${list}${sso} through POST /api/auth/step-up, then send this again.`;
}
