// What the two routes that take a fresh proof share (POST /api/auth/second-factor, POST /api/auth/step-up): a
// refused proof written to the audit log and answered in a sentence a person can act on, and a recovery code's use
// written down and announced (his codes are fewer now).
import "server-only";

import { announceFactorChange } from "@/lib/auth/factors/changes";
import type { ProofResult } from "@/lib/auth/factors/proof";
import { factorSummary } from "@/lib/auth/factors/summary";
import type { User } from "@/lib/auth/users";
import type { Db } from "@/lib/db";

import { ApiError, rateLimited } from "./errors";
import type { HandlerAuditEntry } from "./route";

type ProofRefused = Extract<ProofResult, { ok: false }>;
type Audit = (entry: HandlerAuditEntry) => Promise<void>;
type Action = HandlerAuditEntry["action"];
/** Who the audit row is about: the person, his email, and himself as the target. */
type Who = Pick<HandlerAuditEntry, "userId" | "userEmail" | "target">;

const WRONG = {
  totp: "The code is wrong, or was used already: type the code your authenticator app shows now.",
  recovery: "That recovery code is wrong or was used already: each code works once.",
  passkey: "That passkey is not one of yours, or its answer is not for this sign-in or confirmation: try again.",
  password: "The password is wrong.",
} as const;

/** Audits the refused proof under `action`, then throws the answer: 429 and 503 with Retry-After, else 401 by method. */
export async function refuseProof(result: ProofRefused, audit: Audit, who: Who, action: Action): Promise<never> {
  await audit({
    ...who,
    action,
    outcome: result.reason === "wrong" ? "failure" : "denied",
    detail: result.reason === "wrong" ? { method: result.method, reason: "wrong" } : { reason: result.reason },
  });
  if (result.reason === "throttled")
    throw rateLimited(
      `Too many wrong attempts for this account. Try again in ${result.retryAfterSeconds} s.`,
      result.retryAfterSeconds,
    );
  if (result.reason === "busy")
    throw new ApiError(
      "server_busy",
      `Gatehouse is checking too many sign-ins at once. Try again in ${result.retryAfterSeconds} s.`,
      { headers: { "Retry-After": String(result.retryAfterSeconds) } },
    );
  const sentence = WRONG[result.method];
  if (result.method === "password")
    throw new ApiError("invalid_credentials", sentence, { fields: { password: sentence } });
  throw new ApiError(
    "invalid_second_factor",
    sentence,
    result.method === "passkey" ? {} : { fields: { code: sentence } },
  );
}

/** After a recovery code proved it: the audit row with the codes left, and the account event that warns him. */
export async function noteRecoveryCodeUsed(db: Db, user: User, audit: Audit, who: Who): Promise<void> {
  const { recovery_codes_left: codesLeft } = await factorSummary(db, user.id);
  await audit({ ...who, action: "auth.recovery_code_used", outcome: "success", detail: { codes_left: codesLeft } });
  await announceFactorChange(user, { type: "account.recovery_code_used", codesLeft });
}
