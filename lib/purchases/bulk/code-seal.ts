// A bulk job must keep its codes until they are checked and for its CSV (7 days), unlike the history, which
// keeps only a keyed hash. So the codes are sealed at rest (lib/seal.ts): AES-256-GCM under a key derived (HKDF)
// from PURCHASE_CODE_HASH_KEY, so that a copy of the database alone does not give them away.
import "server-only";

import { openText, sealKey as deriveKey, sealText } from "@/lib/seal";

const keys = new Map<string, Buffer>();

function sealKey(hashKey: string): Buffer {
  let key = keys.get(hashKey);
  if (!key) {
    key = deriveKey(hashKey, "gatehouse bulk purchase-code seal");
    keys.clear(); // one key in use at a time; a rotated one replaces it
    keys.set(hashKey, key);
  }
  return key;
}

/** "iv.tag.ciphertext" in base64url. */
export function sealCode(code: string, hashKey: string): string {
  return sealText(code, sealKey(hashKey));
}

/** A code whose seal no longer opens: its result, in words for the person who sent it. */
export const UNREADABLE_CODE_REASON =
  "The code can no longer be read: PURCHASE_CODE_HASH_KEY changed after the job was created. Send it again.";

/** The code, or null when the seal cannot be opened (the hash key changed since the job was created). */
export function openCode(sealed: string, hashKey: string): string | null {
  return openText(sealed, sealKey(hashKey));
}
