// An endpoint's signing secret must be read back to sign each delivery, so unlike a token it cannot be kept as a
// hash: it is sealed at rest (lib/seal.ts: AES-256-GCM under a key derived with HKDF from PURCHASE_CODE_HASH_KEY
// for this purpose alone), so that a copy of the database alone does not give it away.
import "server-only";

import { randomBytes } from "node:crypto";

import { openText, sealKey, sealText } from "@/lib/seal";

const PURPOSE = "gatehouse webhook secret seal";

/** "iv.tag.ciphertext" in base64url. */
export function sealSecret(secret: string, rootKey: string): string {
  return sealText(secret, sealKey(rootKey, PURPOSE));
}

/** The secret, or null when the seal cannot be opened (the root key changed since it was sealed). */
export function openSecret(sealed: string, rootKey: string): string | null {
  return openText(sealed, sealKey(rootKey, PURPOSE));
}

/** A new signing secret in the Standard Webhooks form: whsec_ + 32 random bytes in base64. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
