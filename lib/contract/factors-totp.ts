// The authenticator app, recovery codes and the admin's sign-in policy (issue 36) as the portal API shows and
// accepts them. No `server-only` and no Node modules.
import { z } from "zod";

import { FactorSummarySchema, SecondFactorPolicySchema, TotpCodeSchema } from "./factors";

export const TotpEnrolmentSchema = z.object({
  secret: z.string().describe("The base32 secret, for typing into an app that cannot scan (shown once, never again)"),
  uri: z.string().describe("The otpauth:// URI the QR code holds"),
  qr_svg: z.string().describe("The QR code of `uri` as an SVG document"),
});

export const TotpConfirmBodySchema = z.strictObject({ code: TotpCodeSchema });

const RecoveryCodeListSchema = z
  .array(z.string())
  .describe("Recovery codes (abcde-12345), each usable once: shown this once, kept hashed");

export const TotpConfirmedSchema = z.object({
  factors: FactorSummarySchema,
  recovery_codes: RecoveryCodeListSchema.nullable().describe(
    "New recovery codes when he had none (his first factor); null when he keeps the ones he has",
  ),
});

export const FactorRemovedSchema = z.object({ factors: FactorSummarySchema });

export const RecoveryCodesSchema = z.object({ recovery_codes: RecoveryCodeListSchema, factors: FactorSummarySchema });

export const SignInPolicySchema = z.object({
  second_factor_policy: SecondFactorPolicySchema.describe(
    "off: nobody must; admins: every admin must have a second factor; everyone: every person with a password must",
  ),
  updated_at: z.string().nullable().describe("When an admin last set it; null: never (off)"),
  updated_by: z.string().nullable().describe("The admin who last set it"),
});

export const SignInPolicyBodySchema = z.strictObject({ second_factor_policy: SecondFactorPolicySchema });
