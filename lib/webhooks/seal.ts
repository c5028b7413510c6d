// An endpoint's signing secret must be read back to sign each delivery, so unlike a token it cannot be kept as a
// hash: it is sealed at rest with AES-256-GCM under a key derived (HKDF) from PURCHASE_CODE_HASH_KEY for this
// purpose alone, so that a copy of the database alone does not give it away. (Issue 21's lib/seal.ts does the
// same for every small secret; this moves onto it when both are merged.)
import "server-only";

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

const keyFor = (rootKey: string) => Buffer.from(hkdfSync("sha256", rootKey, "", "gatehouse webhook secret seal", 32));

/** "iv.tag.ciphertext" in base64url. */
export function sealSecret(secret: string, rootKey: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(rootKey), iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

/** The secret, or null when the seal cannot be opened (the root key changed since it was sealed). */
export function openSecret(sealed: string, rootKey: string): string | null {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(rootKey), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** A new signing secret in the Standard Webhooks form: whsec_ + 32 random bytes in base64. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
