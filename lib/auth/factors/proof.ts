// One check for every proof that this is the person: the second step of a sign-in (a passkey, an authenticator
// code or a recovery code) and a step-up (those, or the password again). Codes and passkeys go through the
// sign-in throttle (lib/auth/throttle.ts) as passwords do: a wrong code counts as a failed sign-in of the account
// from that address, so that a stolen password does not buy unlimited guesses at six digits. The password goes
// through the sign-in itself (the same throttle, the same hashing cap).
import "server-only";

import type { Db } from "@/lib/db";
import type { Proof } from "@/lib/contract/factors";
import type { ProofMethod } from "@/lib/contract/values";

import { signIn } from "../sign-in";
import { checkLoginThrottle, forgiveLoginAttempt, recordLoginFailure, reserveLoginAttempt } from "../throttle";
import type { User } from "../users";
import { checkPasskeyAssertion, type AssertionPurpose } from "./passkeys";
import { redeemRecoveryCode } from "./recovery";
import { checkTotpCode } from "./totp";

export type ProofResult =
  | { ok: true; method: ProofMethod }
  | { ok: false; reason: "wrong"; method: ProofMethod }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number }
  | { ok: false; reason: "busy"; retryAfterSeconds: number };

export interface ProofContext {
  purpose: Exclude<AssertionPurpose, "sign_in">;
  /** The client's address as Gatehouse knows it (TRUST_PROXY), for the throttle. */
  ip: string | null;
  /** This site's origin as the browser sees it: a passkey's assertion must name it. */
  origin: string;
}

/** Checks `proof` for `user`. The password is no second step: only a step-up takes it. */
export async function verifyProof(db: Db, user: User, proof: Proof, context: ProofContext): Promise<ProofResult> {
  if (proof.method === "password") {
    if (context.purpose !== "step_up") return { ok: false, reason: "wrong", method: "password" };
    const result = await signIn(db, { email: user.email, password: proof.password, ip: context.ip });
    if (result.ok) return result.user.id === user.id ? { ok: true, method: "password" } : wrong("password");
    if (result.reason === "invalid_credentials") return wrong("password");
    return { ok: false, reason: result.reason, retryAfterSeconds: result.retryAfterSeconds };
  }

  const who = { email: user.email, ip: context.ip };
  const decision = await checkLoginThrottle(db, who);
  if (!decision.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: decision.retryAfterSeconds };
  const reservation = await reserveLoginAttempt(db, who);
  if (!reservation.reserved)
    return { ok: false, reason: "throttled", retryAfterSeconds: reservation.decision.retryAfterSeconds };

  const right = await checkFactor(db, user, proof, context);
  if (right) {
    await forgiveLoginAttempt(db, who, reservation.id);
    return { ok: true, method: proof.method };
  }
  await recordLoginFailure(db);
  return wrong(proof.method);
}

function wrong(method: ProofMethod): ProofResult {
  return { ok: false, reason: "wrong", method };
}

async function checkFactor(
  db: Db,
  user: User,
  proof: Exclude<Proof, { method: "password" }>,
  context: ProofContext,
): Promise<boolean> {
  switch (proof.method) {
    case "totp":
      return checkTotpCode(db, user.id, proof.code);
    case "recovery":
      return redeemRecoveryCode(db, user.id, proof.code);
    case "passkey": {
      const checked = await checkPasskeyAssertion(db, {
        userId: user.id,
        response: proof.response,
        purpose: context.purpose,
        origin: context.origin,
      });
      return checked.ok && checked.userId === user.id;
    }
  }
}
