// The secret of an API token: "gth_", 32 random base62 characters (190 bits), and 6 base62 characters of the
// CRC32 of those — the format of GitHub's tokens. The prefix lets secret scanners find a leaked token; the checksum
// lets them (and Gatehouse, before any database read) tell a real one from a random string.
//
// Only a SHA-256 of the secret is stored. A slow password hash (scrypt) would protect a secret a person chose;
// this one is 190 random bits, so no guess can be tried against its hash, and a plain hash keeps the lookup a
// single indexed read on every request.
import "server-only";

import { createHash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

import { TOKEN_PREFIX } from "@/lib/contract/values";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const TOKEN_LENGTH = TOKEN_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const SHAPE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it are dropped so that every character is equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function checksum(random: string): string {
  let value = crc32(random);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateTokenSecret(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${TOKEN_PREFIX}${random}${checksum(random)}`;
}

/** Whether `text` has a token's shape and a checksum that matches. */
export function isWellFormedToken(text: string): boolean {
  if (!SHAPE.test(text)) return false;
  const body = text.slice(TOKEN_PREFIX.length);
  return checksum(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

/** What the store keeps: SHA-256, hex. */
export function hashTokenSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}
