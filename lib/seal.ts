// Sealing small secrets at rest: AES-256-GCM (node:crypto) under a key derived with HKDF-SHA256 from a secret of
// the configuration and a purpose, so that each use has its own key and a copy of the database alone gives
// nothing away. The sealed form is "iv.tag.ciphertext" in base64url. Each use is one sealer: bulk jobs' purchase
// codes, single sign-on's transaction and tokens, webhook signing secrets, report share passwords, the upstream
// keys kept in the portal. `context` (optional) is bound in as associated data: a seal opens only with the same
// context, so a sealed value moved to another row (another area) is refused.
import "server-only";

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

import { LRUCache } from "lru-cache";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A secret of the configuration: a string (PURCHASE_CODE_HASH_KEY, SESSION_SECRET) or bytes (GATEHOUSE_KEK). */
type Secret = string | Buffer;

export interface Sealer {
  /** `text` sealed under the key of `secret`; of several (a rotation, newest first), under the first one's. */
  seal(text: string, secret: Secret | readonly Secret[], context?: string): string;
  /** The text, or null when no given secret opens the seal (another key sealed it, it was altered, or another context). */
  open(sealed: string, secret: Secret | readonly Secret[], context?: string): string | null;
  /** The purpose's 32-byte key for `secret`, for a use that is not a seal (a keyed fingerprint's HMAC key). */
  key(secret: Secret): Buffer;
}

// HKDF is cheap but not free, and each request may open a seal: derived keys are kept, a few secrets per purpose.
const derived = new LRUCache<string, Buffer>({ max: 64 });

/** The sealer of one purpose ("gatehouse bulk purchase-code seal"…): its own key from each secret. */
export function sealer(purpose: string): Sealer {
  const key = (secret: Secret): Buffer => {
    const id = `${purpose}\u0000${typeof secret === "string" ? `s:${secret}` : `b:${secret.toString("base64")}`}`;
    let found = derived.get(id);
    if (!found) {
      found = Buffer.from(hkdfSync("sha256", secret, "", purpose, 32));
      derived.set(id, found);
    }
    return found;
  };
  const secretsOf = (secret: Secret | readonly Secret[]): readonly Secret[] =>
    typeof secret === "string" || Buffer.isBuffer(secret) ? [secret] : secret;
  return {
    key,
    seal(text, secret, context) {
      const newest = secretsOf(secret)[0];
      if (newest === undefined) throw new Error(`${purpose}: no secret to seal with`);
      return sealText(text, key(newest), context);
    },
    open(sealed, secret, context) {
      for (const each of secretsOf(secret)) {
        const text = openText(sealed, key(each), context);
        if (text !== null) return text;
      }
      return null;
    },
  };
}

function sealText(text: string, key: Buffer, context?: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  if (context !== undefined) cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

function openText(sealed: string, key: Buffer, context?: string): string | null {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(tag);
    if (context !== undefined) decipher.setAAD(Buffer.from(context, "utf8"));
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
