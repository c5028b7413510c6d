// Passkeys (issue 36) as the portal API shows and accepts them: a person's list, the registration's body, a rename,
// and the WebAuthn options the browser hands to navigator.credentials. The assertion itself is
// PasskeyAssertionSchema (./factors.ts), shared with the second step and the step-up. No `server-only` and no
// Node modules.
import { z } from "zod";

import { textError } from "./accounts";
import { isoTimestamp } from "./common";
import { PasskeyAssertionSchema } from "./factors";
import { MAX_PASSKEYS_PER_USER } from "./values";

/** His name for a passkey ("Work laptop", "Phone"). */
const passkeyName = z
  .string(textError("name"))
  .trim()
  .min(1, "name must not be empty: name the device, such as Work laptop")
  .max(60, "name must be at most 60 characters");

/** The browser's answer to navigator.credentials.create (@simplewebauthn/browser's RegistrationResponseJSON). */
export const PasskeyRegistrationSchema = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: z.string().min(1).max(16_384),
    attestationObject: z.string().min(1).max(65_536),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: z.looseObject({}).optional().default({}),
});
export type PasskeyRegistration = z.infer<typeof PasskeyRegistrationSchema>;

export const PasskeyRegisterBodySchema = z.strictObject({
  name: passkeyName.describe("What to call it, so that he can tell his passkeys apart"),
  response: PasskeyRegistrationSchema.describe(
    "The browser's answer to the options of POST /api/auth/passkeys/options (RegistrationResponseJSON)",
  ),
});

export const PasskeyRenameBodySchema = z.strictObject({ name: passkeyName.describe("Its new name") });

export const PasskeyIdParamsSchema = z.object({
  id: z
    .uuid({ error: "must be a passkey id (a UUID, as GET /api/auth/passkeys lists)" })
    .transform((id) => id.toLowerCase())
    .describe("Passkey id"),
});

export const PasskeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    created_at: isoTimestamp,
    last_used_at: z.nullable(isoTimestamp).describe("null: never used to sign in or confirm"),
    backed_up: z.boolean().describe("The passkey is synced by its provider (it survives a lost device)"),
  })
  .describe(`A passkey of the signed-in person (at most ${MAX_PASSKEYS_PER_USER})`);
export type PasskeyOutput = z.infer<typeof PasskeySchema>;

/** What an assertion's options are for; the dialog of a step-up and the second step ask for theirs. */
export const ASSERTION_PURPOSES = ["sign_in", "second_factor", "step_up"] as const;

export const PasskeyOptionsBodySchema = z.strictObject({
  purpose: z
    .enum(ASSERTION_PURPOSES, { error: `purpose must be one of: ${ASSERTION_PURPOSES.join(", ")}` })
    .describe(
      "sign_in: a passkey alone (any of this site's); second_factor: the sign-in waiting for its second step; step_up: the signed-in person's",
    ),
});

/** navigator.credentials.create's options as JSON (PublicKeyCredentialCreationOptionsJSON). */
export const RegistrationOptionsSchema = z
  .looseObject({
    challenge: z.string(),
    rp: z.looseObject({ id: z.string().optional(), name: z.string() }),
    user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  })
  .describe(
    "Hand to @simplewebauthn/browser's startRegistration({ optionsJSON }); its challenge is good once, for 5 minutes",
  );

/** navigator.credentials.get's options as JSON (PublicKeyCredentialRequestOptionsJSON). */
export const AuthenticationOptionsSchema = z
  .looseObject({ challenge: z.string(), rpId: z.string().optional() })
  .describe(
    "Hand to @simplewebauthn/browser's startAuthentication({ optionsJSON }); its challenge is good once, for 5 minutes",
  );

/** A sign-in with a passkey alone: the browser's answer to the options of purpose sign_in. */
export const PasskeySignInBodySchema = z.strictObject({
  response: PasskeyAssertionSchema.describe("The browser's answer (AuthenticationResponseJSON)"),
});
