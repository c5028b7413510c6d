// Second factors (issue 36) as the portal API shows and accepts them: a proof (the second step of a sign-in, a
// step-up), what a person has enrolled, and the admin's policy. No `server-only` and no Node modules.
import { z } from "zod";

import { textError } from "./accounts";
import { SECOND_FACTOR_POLICIES } from "./values";

/** Six digits from an authenticator app; spaces (as apps show them: "123 456") are dropped. */
export const TotpCodeSchema = z
  .string({ error: "code is required" })
  .transform((code) => code.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "code must be the 6 digits your authenticator app shows"));

/** A recovery code as shown ("abcde-12345"); case, spaces and dashes do not matter. */
export const RecoveryCodeSchema = z
  .string({ error: "code is required" })
  .transform((code) => code.toLowerCase().replace(/[\s-]+/g, ""))
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, "code must be one of your recovery codes, such as abcde-12345"));

/**
 * The browser's answer to a WebAuthn challenge (@simplewebauthn/browser's AuthenticationResponseJSON), checked
 * for shape here and for its signature by lib/auth/factors/passkeys.ts.
 */
export const PasskeyAssertionSchema = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: z.string().min(1).max(16_384),
    authenticatorData: z.string().min(1).max(16_384),
    signature: z.string().min(1).max(16_384),
    userHandle: z.string().max(1024).optional(),
  }),
  clientExtensionResults: z.looseObject({}).optional().default({}),
});

/** A password given again (a step-up): longer than any the policy allows is refused before any hashing work. */
const passwordField = z.string(textError("password")).min(1, "password is required").max(1024, "password is too long");

/** A proof that this is the person: the second step of a sign-in takes passkey, totp and recovery; a step-up also password. */
export const ProofSchema = z.discriminatedUnion(
  "method",
  [
    z.strictObject({ method: z.literal("totp"), code: TotpCodeSchema }),
    z.strictObject({ method: z.literal("recovery"), code: RecoveryCodeSchema }),
    z.strictObject({ method: z.literal("passkey"), response: PasskeyAssertionSchema }),
    z.strictObject({ method: z.literal("password"), password: passwordField }),
  ],
  { error: "method must be one of: passkey, totp, recovery, password" },
);
export type Proof = z.infer<typeof ProofSchema>;
export type PasskeyAssertion = z.infer<typeof PasskeyAssertionSchema>;

/** What a person has enrolled, as his security page and the second step show it. */
export const FactorSummarySchema = z.object({
  passkeys: z.number().int().describe("Passkeys registered"),
  totp: z.boolean().describe("An authenticator app is enrolled and confirmed"),
  recovery_codes_left: z.number().int().describe("Recovery codes not used yet"),
});
export type FactorSummary = z.infer<typeof FactorSummarySchema>;

/** GET /api/auth/factors: the summary, and what the step-up and the security page need to know beside it. */
export const FactorsOutputSchema = FactorSummarySchema.extend({
  password: z.boolean().describe("He signs in with a password (false: single sign-on)"),
  required: z.boolean().describe("The admin's policy requires a second factor of his role"),
});
export type FactorsOutput = z.infer<typeof FactorsOutputSchema>;

export const SecondFactorPolicySchema = z.enum(SECOND_FACTOR_POLICIES, {
  error: `second_factor_policy must be one of: ${SECOND_FACTOR_POLICIES.join(", ")}`,
});

/** The second step of a sign-in: a passkey, an authenticator code or a recovery code (never the password again). */
export const SecondStepBodySchema = z.discriminatedUnion(
  "method",
  [
    z.strictObject({ method: z.literal("totp"), code: TotpCodeSchema }),
    z.strictObject({ method: z.literal("recovery"), code: RecoveryCodeSchema }),
    z.strictObject({ method: z.literal("passkey"), response: PasskeyAssertionSchema }),
  ],
  { error: "method must be one of: passkey, totp, recovery" },
);

/** The password was right and a second step is needed: how he may give it. */
export const SecondStepNeededSchema = z
  .object({
    second_factor: z.object({
      methods: z
        .array(z.enum(["passkey", "totp", "recovery"]))
        .describe("What the person has enrolled: POST /api/auth/second-factor with one of them"),
      expires_at: z.iso.datetime().describe("When the second step must be done by; the password again afterwards"),
    }),
  })
  .describe("No session yet: a short-lived cookie names the person until the second step");

/** POST /api/auth/step-up: the proof was right; sensitive actions need none again until `fresh_until`. */
export const StepUpOutputSchema = z.object({
  method: z.enum(["passkey", "totp", "recovery", "password"]).describe("How he proved it"),
  verified_at: z.iso.datetime().describe("When (the session's last proof)"),
  fresh_until: z.iso.datetime().describe("Until when sensitive actions need no other proof"),
});
