// Demo accounts never belong in a configured deployment: anyone who has read the README can sign in with them.
// A configured start looks for them — any account with a @demo.test address, or whose password is the demo
// password — and refuses the store if it finds one (lib/auth/startup.ts); `npm run users -- remove-demo-accounts`
// removes them. Each password hash is checked once (a check costs a full password hashing) and remembered in
// password_screening, so later starts only check hashes that changed.
import "server-only";

import type { Db } from "@/lib/db";

import { deleteFactors } from "./factors/reset";
import { verifyPassword } from "./password";
import { DEMO_PASSWORD } from "./users";
import { forgetUser } from "./user-cache";

export const DEMO_DOMAIN = "@demo.test";

/** Hashes checked at once: the password hashing runs on libuv's thread pool (4 threads by default). */
const PARALLEL_CHECKS = 4;

export interface DemoAccount {
  id: string;
  email: string;
  why: "demo address" | "demo password";
}

/** The accounts of the store that are demo accounts: a @demo.test address, or the demo password. */
export async function findDemoAccounts(db: Db, now: Date = new Date()): Promise<DemoAccount[]> {
  const found: DemoAccount[] = [];
  const byAddress = await db
    .selectFrom("users")
    .select(["id", "email"])
    .where("email", "like", `%${DEMO_DOMAIN}`)
    .orderBy("email")
    .execute();
  for (const user of byAddress) found.push({ ...user, why: "demo address" });

  // Hashes not checked yet: new users, and any whose password changed (or was rehashed) since.
  const unchecked = await db
    .selectFrom("users")
    .leftJoin("password_screening", (join) =>
      join
        .onRef("password_screening.user_id", "=", "users.id")
        .onRef("password_screening.password_hash", "=", "users.password_hash"),
    )
    .select(["users.id", "users.email", "users.password_hash"])
    .where("password_screening.user_id", "is", null)
    .where("users.email", "not like", `%${DEMO_DOMAIN}`)
    .orderBy("users.email")
    .execute();
  const checked: Array<{ user_id: string; password_hash: string; screened_at: string }> = [];
  for (let i = 0; i < unchecked.length; i += PARALLEL_CHECKS) {
    const batch = unchecked.slice(i, i + PARALLEL_CHECKS);
    const matches = await Promise.all(batch.map((user) => verifyPassword(DEMO_PASSWORD, user.password_hash)));
    batch.forEach((user, j) => {
      if (matches[j]) found.push({ id: user.id, email: user.email, why: "demo password" });
      else checked.push({ user_id: user.id, password_hash: user.password_hash, screened_at: now.toISOString() });
    });
  }
  // Only clean hashes are remembered: one with the demo password is checked again until it changes.
  for (const row of checked) {
    await db
      .insertInto("password_screening")
      .values(row)
      .onConflict((conflict) =>
        conflict.column("user_id").doUpdateSet({ password_hash: row.password_hash, screened_at: row.screened_at }),
      )
      .execute();
  }
  return found;
}

/** Deletes the demo accounts (and what only they had: their screening rows, their second factors). Returns what it removed. */
export async function removeDemoAccounts(db: Db): Promise<DemoAccount[]> {
  const found = await findDemoAccounts(db);
  if (found.length === 0) return [];
  const ids = found.map((account) => account.id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("password_screening").where("user_id", "in", ids).execute();
    await deleteFactors(trx, ids);
    await trx.deleteFrom("users").where("id", "in", ids).execute();
  });
  for (const id of ids) forgetUser(id);
  return found;
}

/** The refusal of a configured start, as one line with the command that fixes it. */
export function demoAccountsRefusal(found: DemoAccount[], where: string): string {
  const shown = found.slice(0, 4).map((account) => account.email);
  const more = found.length > shown.length ? ` and ${found.length - shown.length} more` : "";
  return `The store ${where} holds demo accounts (${shown.join(", ")}${more}: a ${DEMO_DOMAIN} address or the published demo password), which anyone can sign in with; a configured Gatehouse does not start on it. Remove them with: npm run users -- remove-demo-accounts`;
}
