// A bulk job must keep its codes until they are checked and for its CSV (7 days), unlike the history, which
// keeps only a keyed hash. So the codes are sealed at rest: AES-256-GCM under a key derived (HKDF) from
// PURCHASE_CODE_HASH_KEY, so that a copy of the database alone does not give them away.
import "server-only";

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;
const keys = new Map<string, Buffer>();

function sealKey(hashKey: string): Buffer {
  let key = keys.get(hashKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", hashKey, "", "gatehouse bulk purchase-code seal", 32));
    keys.clear(); // one key in use at a time; a rotated one replaces it
    keys.set(hashKey, key);
  }
  return key;
}

/** "iv.tag.ciphertext" in base64url. */
export function sealCode(code: string, hashKey: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", sealKey(hashKey), iv);
  const body = Buffer.concat([cipher.update(code, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

/** The code, or null when the seal cannot be opened (the hash key changed since the job was created). */
export function openCode(sealed: string, hashKey: string): string | null {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealKey(hashKey), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
