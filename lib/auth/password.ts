// Password hashing (what a password must be is lib/contract/password.ts). scrypt from node:crypto (no native
// add-on), a random salt per password, and the cost parameters kept in the stored string so they can be raised
// later without breaking old hashes:
//   scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

import { PASSWORD_MAX_LENGTH } from "@/lib/contract/values";

export interface ScryptParams {
  N: number; // CPU/memory cost, a power of two
  r: number; // block size
  p: number; // parallelisation
}

// OWASP's scrypt row "N=2^15, r=8, p=3": the same work as N=2^17 with a quarter of the memory (32 MiB per
// hash), which matters when several logins arrive at once. About 0.3 s per hash on the 2-core reference box.
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 15, r: 8, p: 3 });

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;

function scrypt(password: string, salt: Buffer, params: ScryptParams, keyLength = KEY_LENGTH): Promise<Buffer> {
  // Node refuses when 128*N*r reaches maxmem (32 MiB by default), so give it room for the chosen cost.
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize("NFKC"), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await scrypt(password, salt, params);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4] ?? "", "base64url");
  const hash = Buffer.from(parts[5] ?? "", "base64url");
  const sane = (n: number | undefined, max: number): n is number =>
    typeof n === "number" && Number.isInteger(n) && n > 0 && n <= max;
  // Bounds keep a corrupted row from asking scrypt for gigabytes.
  if (!sane(N, 2 ** 20) || (N & (N - 1)) !== 0 || !sane(r, 32) || !sane(p, 16)) return null;
  if (salt.length === 0 || hash.length === 0) return null;
  return { params: { N, r, p }, salt, hash };
}

/** True when `password` matches `stored`. A malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || password.length > PASSWORD_MAX_LENGTH) return false;
  const candidate = await scrypt(password, parsed.salt, parsed.params, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

/** True when `stored` was made with other cost parameters than `params`: rehash it at the next sign-in. */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.params.N !== params.N || parsed.params.r !== params.r || parsed.params.p !== params.p;
}

/**
 * A well-formed hash that no password matches (random salt and digest). Verifying against it costs what a real
 * verification costs, so an unknown email takes about as long to refuse as a wrong password.
 */
export function unmatchableHash(params: ScryptParams = DEFAULT_SCRYPT_PARAMS): string {
  return ["scrypt", params.N, params.r, params.p, randomBytes(SALT_LENGTH), randomBytes(KEY_LENGTH)]
    .map((part) => (Buffer.isBuffer(part) ? part.toString("base64url") : String(part)))
    .join("$");
}
