// Password policy and hashing. scrypt from node:crypto (no native add-on), a random salt per password, and the
// cost parameters kept in the stored string so they can be raised later without breaking old hashes:
//   scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary as commonDictionary } from "@zxcvbn-ts/language-common";
import { dictionary as englishDictionary, translations } from "@zxcvbn-ts/language-en";
import { z } from "zod";

import { PASSWORD_MAX_LENGTH, passwordSchema as passwordShape, visiblePassword } from "@/lib/contract/accounts";

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/contract/accounts";

// ---------------------------------------------------------------------------------------------------------
// Policy (OWASP ASVS 5.0, 6.2): at least 12 visible characters, no control characters, and not easy to guess —
// not a common password, not built from the account's own email or name. The shape rules live in ./fields.ts
// (no dictionary, so the browser may use them); the guessability check here, with zxcvbn-ts and its offline
// lists of common passwords and words, because a well-kept estimator beats a list of our own.

/**
 * zxcvbn's top score, 4: about 10^10 guesses or more. Score 3 (10^8) is the usual bar, but the estimator gives
 * at least 10^8 to almost any 12 characters ("summer2024!!"), so with our length rule 3 would refuse too little.
 */
export const PASSWORD_MIN_SCORE = 4;
/** The estimator's work grows with the length; a longer password's first 100 characters tell enough. */
const CHECKED_LENGTH = 100;
/** Words every Gatehouse account would share: the product's name is no secret. */
const PRODUCT_WORDS = ["gatehouse", "gate house", "portal"];

let estimator: ZxcvbnFactory | undefined;
function strength(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary },
    graphs: adjacencyGraphs,
    translations,
  });
  return estimator;
}

/** Who the password is for: his email (and name) must not make it. */
export interface PasswordContext {
  email?: string | null;
  name?: string | null;
}

/**
 * Why this password may not be set, as "password …" (the fields' wording), or null when it may. Assumes the
 * shape rules of ./fields.ts passed.
 */
export function passwordProblem(password: string, context: PasswordContext = {}): string | null {
  const visible = visiblePassword(password).normalize("NFKC");
  const lower = visible.toLowerCase();
  const email = context.email?.trim().toLowerCase() ?? "";
  if (email !== "" && (lower.includes(email) || lower === email.split("@")[0])) {
    return "password must not contain the account's email";
  }
  const inputs = [...PRODUCT_WORDS];
  if (email !== "") inputs.push(email, ...email.split(/[@.+_-]/).filter((part) => part.length >= 3));
  if (context.name?.trim()) inputs.push(...context.name.trim().toLowerCase().split(/\s+/).filter((part) => part.length >= 3));
  const result = strength().check(visible.slice(0, CHECKED_LENGTH), inputs);
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const why = result.feedback.warning ?? "it is made of common words, names or patterns";
  return `password is too easy to guess: ${why.replace(/\.$/, "")}. Use a longer phrase of unrelated words`;
}

/**
 * The whole policy for one password, where the account is not known yet (ADMIN_PASSWORD, the CLI's prompt).
 * The users repository checks again with the account's email and name.
 */
export const passwordSchema = passwordShape.superRefine(
  (password, ctx) => {
    const problem = passwordProblem(password);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  },
  { when: onlyWhenValidSoFar },
);

/** A person fixes one thing at a time: the strength is judged once the shape rules pass. */
export function onlyWhenValidSoFar(payload: { issues: readonly unknown[] }): boolean {
  return payload.issues.length === 0;
}

/** Adds the policy's refusal for `password` to a zod context, at path ["password"], knowing the account. */
export function checkPasswordFor(password: string | undefined, context: PasswordContext, ctx: z.RefinementCtx): void {
  if (password === undefined) return;
  const problem = passwordProblem(password, context);
  if (problem) ctx.addIssue({ code: "custom", path: ["password"], message: problem });
}

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
