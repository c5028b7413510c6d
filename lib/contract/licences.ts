// Licence activations (issue 34): the seller's installed copies activate, validate and deactivate themselves with
// the buyer's purchase code (no token: the code is the buyer's secret); admins set each item's policy; support
// staff see a code's activations and reset them. Every answer of the public API is signed (Ed25519) so that a copy
// can verify it offline: the signature is over the body's bytes, in the Gatehouse-Signature header
// (lib/licences/signing.ts; docs/licences.md has the snippets).
import { z } from "zod";

import { isoTimestamp } from "./common";
import { rawPurchaseCode } from "./purchases";

/** Activations one licence may hold at most, whatever a policy says: a runaway copy cannot fill the table. */
export const MAX_ACTIVATIONS_PER_LICENCE = 1000;
export const MAX_NEVER_COUNT_PATTERNS = 50;
export const INSTANCE_ID_MAX_LENGTH = 200;
export const INSTANCE_NAME_MAX_LENGTH = 200;
/** The longest domain name DNS allows (after IDN's punycode). */
export const DOMAIN_MAX_LENGTH = 253;

/** Headers of every answer of the public licence API. */
export const SIGNATURE_HEADER = "Gatehouse-Signature";
export const SIGNATURE_KEY_HEADER = "Gatehouse-Signature-Key";
/** Where the public keys are published (also on Admin → Licences). */
export const LICENCE_KEYS_PATH = "/.well-known/gatehouse-licence-keys.json";

export const LicenceInstanceSchema = z
  .strictObject({
    domain: z
      .string({ error: "must be a string: the site's domain, e.g. shop.example.com" })
      .min(1, "must not be empty")
      .max(300, "must be at most 300 characters")
      .optional()
      .describe("The site the copy runs on; compared after normalisation (case, www., a trailing dot, IDN)"),
    id: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(INSTANCE_ID_MAX_LENGTH, `must be at most ${INSTANCE_ID_MAX_LENGTH} characters`)
      .optional()
      .describe("Another identity of the copy (a machine id), compared exactly: for copies that are not sites"),
    name: z
      .string({ error: "must be a string" })
      .max(INSTANCE_NAME_MAX_LENGTH, `must be at most ${INSTANCE_NAME_MAX_LENGTH} characters`)
      .optional()
      .describe("A name support staff will recognise (shown beside the activation)"),
  })
  .refine((instance) => (instance.domain === undefined) !== (instance.id === undefined), {
    error: "must have either a domain or an id (exactly one of them)",
  });
export type LicenceInstanceInput = z.infer<typeof LicenceInstanceSchema>;

export const LicenceRequestSchema = z.strictObject({
  purchase_code: rawPurchaseCode.describe("The buyer's purchase code, as the buyer entered it in the copy"),
  item_id: z
    .number({ error: "must be the item's id, a number" })
    .int("must be a whole number")
    .positive("must be a positive item id"),
  instance: LicenceInstanceSchema,
  nonce: z
    .string({ error: "must be a string" })
    .max(128, "must be at most 128 characters")
    .optional()
    .describe("Echoed in the signed answer, so that a copy can tell a fresh answer from a replayed one"),
});
export type LicenceRequest = z.infer<typeof LicenceRequestSchema>;

export const ActivationSchema = z.object({
  id: z.string().describe("act_…: what support staff reset"),
  instance: z.object({
    kind: z.enum(["domain", "id"]),
    value: z.string().describe("As compared: a domain normalised (lower case, no www., punycode)"),
    name: z.string().nullable(),
  }),
  counted: z.boolean().describe("false: a domain the item's policy never counts (localhost, *.test, staging.*)"),
  status: z.enum(["active", "deactivated"]),
  activated_at: isoTimestamp,
  last_seen_at: isoTimestamp.check(z.describe("Its last activation or validation")),
  deactivated_at: z.nullable(isoTimestamp),
  deactivated_by: z
    .string()
    .nullable()
    .describe('"copy" (the copy deactivated itself), "refund" (the purchase was revoked), or the staff member'),
  reason: z.string().nullable().describe("A staff reset's reason"),
});
export type Activation = z.infer<typeof ActivationSchema>;

export const LicenceSchema = z.object({
  status: z.enum(["active", "revoked"]).describe("revoked: the sale was refunded or reversed"),
  item_id: z.number().int().positive(),
  item_name: z.string(),
  licence_type: z.string().describe('As the item API says it, e.g. "Regular License"'),
  supported_until: z.nullable(isoTimestamp),
  code_last4: z.string(),
  activations: z.object({
    used: z.number().int().nonnegative().describe("Counted activations active now"),
    allowed: z.number().int().nonnegative(),
  }),
});

export const LicenceAnswerSchema = z.object({
  active: z.boolean().describe("Whether this instance holds an active activation now"),
  licence: LicenceSchema,
  activation: ActivationSchema.nullable(),
  verdict: z.object({
    fresh: z
      .boolean()
      .describe(
        "true: the item API's verdict of the cache's lifetime (UPSTREAM_CACHE_ITEMS_TTL_MS); false: an older one, the last known, because the item API could not be asked now (this API's budget spent, or it did not answer)",
      ),
    as_of: isoTimestamp.check(z.describe("When the item API last said the purchase is valid")),
  }),
  issued_at: isoTimestamp,
  nonce: z.string().nullable(),
});
export type LicenceAnswer = z.infer<typeof LicenceAnswerSchema>;

const activationsAllowed = z
  .number({ error: "must be a number of activations" })
  .int("must be a whole number")
  .min(0, "must be 0 or more")
  .max(MAX_ACTIVATIONS_PER_LICENCE, `must be at most ${MAX_ACTIVATIONS_PER_LICENCE}`);

export const LicenceLimitsSchema = z.strictObject({ regular: activationsAllowed, extended: activationsAllowed });

/** A never-counted domain: a name, `*.` before one (any subdomain), or `.*` after a first label (staging.*). */
export const NEVER_COUNT_PATTERN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(\.\*)?$/;

export const LicencePolicyBodySchema = z.strictObject({
  enabled: z.boolean({ error: "must be true or false" }),
  limits: LicenceLimitsSchema.describe("Activations allowed per licence type"),
  never_count: z
    .array(
      z
        .string({ error: "must be a string" })
        .trim()
        .toLowerCase()
        .max(DOMAIN_MAX_LENGTH, `must be at most ${DOMAIN_MAX_LENGTH} characters`)
        .regex(
          NEVER_COUNT_PATTERN,
          "must be a domain (localhost), a wildcard before one (*.test) or after its first label (staging.*)",
        ),
    )
    .max(MAX_NEVER_COUNT_PATTERNS, `must have at most ${MAX_NEVER_COUNT_PATTERNS} patterns`)
    .describe("Domains whose activations never count against the limit"),
  revoked_deactivates: z
    .boolean({ error: "must be true or false" })
    .describe("A refunded or reversed purchase releases every activation of its code"),
});
export type LicencePolicyBody = z.infer<typeof LicencePolicyBodySchema>;

export const LicencePolicySchema = LicencePolicyBodySchema.extend({
  item_id: z.number().int().positive(),
  updated_at: z.nullable(isoTimestamp).describe("null: never saved (the defaults, off)"),
  updated_by: z.string().nullable(),
});
export type LicencePolicy = z.infer<typeof LicencePolicySchema>;

export const DEFAULT_LICENCE_POLICY: Readonly<LicencePolicyBody> = Object.freeze({
  enabled: false,
  limits: { regular: 1, extended: 5 },
  never_count: ["localhost", "*.localhost", "*.test", "*.local", "staging.*"],
  revoked_deactivates: true,
});

export const LicenceSigningKeySchema = z.object({
  id: z.string().describe("Sent with each answer in Gatehouse-Signature-Key"),
  alg: z.literal("Ed25519"),
  public_key: z.string().describe("The raw 32-byte public key, base64 (PHP's sodium and WebCrypto take it as is)"),
  pem: z.string().describe("The same key as SPKI PEM (Node's crypto, OpenSSL)"),
  created_at: isoTimestamp,
});
export const LicenceKeysSchema = z.object({ keys: z.array(LicenceSigningKeySchema) });

export const LicenceLookupBodySchema = z.strictObject({
  purchase_code: rawPurchaseCode.describe("The code whose activations to list (in the body: never in a URL)"),
});

const reason = z
  .string({ error: "is required: say why, for the audit log" })
  .trim()
  .min(3, "must say why, in at least 3 characters (it is kept in the audit log)")
  .max(500, "must be at most 500 characters");

export const ActivationResetBodySchema = z.strictObject({ reason });
export const LicenceResetBodySchema = z.strictObject({
  purchase_code: rawPurchaseCode,
  item_id: z.number().int().positive().optional().describe("Only this item's activations; all items' otherwise"),
  reason,
});
export const ActivationIdParamsSchema = z.strictObject({
  id: z.string().regex(/^act_[A-Za-z0-9_-]{8,64}$/, "must be an activation id (act_…)"),
});
export const CodeActivationSchema = ActivationSchema.extend({ item_id: z.number().int().positive() });
export type CodeActivation = z.infer<typeof CodeActivationSchema>;
export const CodeActivationsSchema = z.object({
  code_last4: z.string(),
  activations: z.array(CodeActivationSchema).describe("Active first, then deactivated; newest first within each"),
});
export const ResetAnswerSchema = z.object({ reset: z.number().int().nonnegative() });
