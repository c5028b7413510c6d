// An endpoint's signing secret must be read back to sign each delivery, so unlike a token it cannot be kept as a
// hash: it is sealed at rest (lib/seal.ts) under a key derived from the data key (PURCHASE_CODE_HASH_KEY) for this
// purpose alone, so that a copy of the database alone does not give it away.
import "server-only";

import { randomBytes } from "node:crypto";

import { sealer } from "@/lib/seal";

/** Seals and opens signing secrets; one whose seal no longer opens (the data key changed) reads as null. */
export const signingSecretSealer = sealer("gatehouse webhook secret seal");

/** A new signing secret in the Standard Webhooks form: whsec_ + 32 random bytes in base64. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
