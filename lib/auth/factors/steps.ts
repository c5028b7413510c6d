// What follows a right password: the second step (he has a passkey or an authenticator app), enrolment first (the
// policy covers his role and he has none), or a session straight away.
import "server-only";

import type { Db } from "@/lib/db";

import type { SessionData } from "../session";
import type { User } from "../users";
import { policyCovers, readSecondFactorPolicy } from "./policy";
import { factorSummary } from "./summary";

export type SecondStepMethod = "passkey" | "totp" | "recovery";

/** How he may give the second step; empty when he has no second factor (recovery codes alone are none). */
export async function secondStepMethods(db: Db, user: Pick<User, "id">): Promise<SecondStepMethod[]> {
  const summary = await factorSummary(db, user.id);
  if (summary.passkeys === 0 && !summary.totp) return [];
  return [
    ...(summary.passkeys > 0 ? (["passkey"] as const) : []),
    ...(summary.totp ? (["totp"] as const) : []),
    ...(summary.recovery_codes_left > 0 ? (["recovery"] as const) : []),
  ];
}

/** Whether a person without a second factor must enrol one before anything else (the admin's policy). */
export async function mustEnrolFirst(db: Db, user: Pick<User, "role">): Promise<boolean> {
  return policyCovers(await readSecondFactorPolicy(db), user.role);
}

/** The session once he enrolled a second factor: no longer held to enrolment, and just proven. */
export function sessionAfterEnrolment(session: SessionData, now: number = Date.now()): SessionData {
  const { mustEnrol: _done, ...rest } = session;
  return { ...rest, verifiedAt: now };
}
