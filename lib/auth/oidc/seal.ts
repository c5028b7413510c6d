// What single sign-on keeps sealed (the sign-in transaction cookie, refresh and ID tokens in the store): AES-256-GCM
// (lib/seal.ts) under keys derived from SESSION_SECRET, one per purpose. Sealed with the newest secret, opened with
// any listed one, so rotating SESSION_SECRET (newest first) keeps what was sealed before readable.
import "server-only";

import { openText, sealKey, sealText } from "@/lib/seal";

export type SealPurpose = "gatehouse sso transaction" | "gatehouse sso tokens";

const keys = new Map<string, Buffer>();

function keyFor(secret: string, purpose: SealPurpose): Buffer {
  const id = `${purpose}\u0000${secret}`;
  let key = keys.get(id);
  if (!key) {
    if (keys.size > 16) keys.clear(); // a few secrets, rotated rarely
    key = sealKey(secret, purpose);
    keys.set(id, key);
  }
  return key;
}

export function sealWithSecrets(text: string, secrets: readonly string[], purpose: SealPurpose): string {
  const newest = secrets[0];
  if (newest === undefined) throw new Error("no session secret to seal with");
  return sealText(text, keyFor(newest, purpose));
}

/** The text, or null when no listed secret opens it (sealed before a rotation dropped its secret, or altered). */
export function openWithSecrets(sealed: string, secrets: readonly string[], purpose: SealPurpose): string | null {
  for (const secret of secrets) {
    const text = openText(sealed, keyFor(secret, purpose));
    if (text !== null) return text;
  }
  return null;
}
