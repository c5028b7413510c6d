// Passkeys (WebAuthn, through @simplewebauthn/server): registration, and the check of an assertion. Built by
// issue 36's passkey part; the signature below is what lib/auth/factors/proof.ts calls.
import "server-only";

import type { Db } from "@/lib/db";
import type { PasskeyAssertion } from "@/lib/contract/factors";

/** What an assertion is for: a sign-in with a passkey alone, the second step after a password, a step-up. */
export type AssertionPurpose = "sign_in" | "second_factor" | "step_up";

/**
 * Checks an assertion against a challenge this site issued for `purpose` (unused, unexpired: it is used now), the
 * site's origin and one of the person's passkeys (`userId`; null for a sign-in with a passkey alone, where the
 * passkey says whose it is). On success, the person's id.
 */
export async function checkPasskeyAssertion(
  db: Db,
  input: { userId: string | null; response: PasskeyAssertion; purpose: AssertionPurpose; origin: string },
): Promise<{ ok: true; userId: string } | { ok: false }> {
  void db;
  void input;
  return { ok: false };
}
