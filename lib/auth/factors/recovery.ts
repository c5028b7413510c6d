// Recovery codes: RECOVERY_CODE_COUNT single-use codes, shown once, kept as a keyed hash (HMAC-SHA256 under a key
// derived from the data key, PURCHASE_CODE_HASH_KEY, for this purpose alone, with the person's id bound in): a copy
// of the database alone gives no code away and cannot be tried offline without the key. A code is 10 characters
// of [a-z0-9] (about 51 bits), shown as abcde-12345. Using one marks it used by a conditional UPDATE (only while
// unused), so two instances given the same code cannot both accept it. Making a new set deletes the old one.
import "server-only";

import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";

import type { Db } from "@/lib/db";
import { getConfig } from "@/lib/config";
import { RECOVERY_CODE_COUNT } from "@/lib/contract/values";
import { sealer } from "@/lib/seal";

const recoveryKeys = sealer("gatehouse recovery code hash");
const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

async function hashKey(sealKey: string | undefined): Promise<Buffer> {
  return recoveryKeys.key(sealKey ?? (await getConfig()).dataKey);
}

function hashCode(key: Buffer, userId: string, code: string): string {
  return createHmac("sha256", key).update(`${userId}\u0000${code}`).digest("base64url");
}

/** A new code as shown: abcde-12345 (10 random characters of [a-z0-9]). */
function newCode(): string {
  let code = "";
  for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * A new set of RECOVERY_CODE_COUNT codes for the person, replacing every code he had (used or not), in one
 * transaction. Returns the codes as shown: the only time they exist outside his hands.
 */
export async function generateRecoveryCodes(
  db: Db,
  userId: string,
  options: { sealKey?: string; now?: Date } = {},
): Promise<string[]> {
  const key = await hashKey(options.sealKey);
  const now = (options.now ?? new Date()).toISOString();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const rows = codes.map((code) => ({
    id: randomUUID(),
    user_id: userId,
    code_hash: hashCode(key, userId, code.replace("-", "")),
    used_at: null,
    created_at: now,
  }));
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
    await trx.insertInto("recovery_codes").values(rows).execute();
  });
  return codes;
}

/** Whether `code` (normalized: 10 lowercase letters and digits) is one of the person's unused codes; it is then used. */
export async function redeemRecoveryCode(
  db: Db,
  userId: string,
  code: string,
  now: Date = new Date(),
  sealKey?: string,
): Promise<boolean> {
  if (!/^[a-z0-9]{10}$/.test(code)) return false;
  const wanted = Buffer.from(hashCode(await hashKey(sealKey), userId, code));
  const rows = await db
    .selectFrom("recovery_codes")
    .select(["id", "code_hash"])
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
  const match = rows.find((row) => {
    const stored = Buffer.from(row.code_hash);
    return stored.length === wanted.length && timingSafeEqual(stored, wanted);
  });
  if (!match) return false;
  const used = await db
    .updateTable("recovery_codes")
    .set({ used_at: now.toISOString() })
    .where("id", "=", match.id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}
