// Sealing small secrets at rest: AES-256-GCM (node:crypto) under a key derived with HKDF-SHA256 from a secret of
// the configuration and a purpose, so that each use has its own key and a copy of the database alone gives
// nothing away. The sealed form is "iv.tag.ciphertext" in base64url. Used for bulk jobs' purchase codes and
// single sign-on refresh tokens.
import "server-only";

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte key for `purpose` ("gatehouse bulk purchase-code seal"…) derived from `secret`. */
export function sealKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "", purpose, 32));
}

export function sealText(text: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

/** The text, or null when the seal cannot be opened with this key (another key sealed it, or it was altered). */
export function openText(sealed: string, key: Buffer): string | null {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
