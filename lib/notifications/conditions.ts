// The conditions' rows (lib/notifications/lasting.ts decides, this file reads and writes them).
import "server-only";

import type { Db } from "@/lib/db";

import type { Condition } from "./lasting";

export async function loadCondition(db: Db, key: string): Promise<Condition | null> {
  const row = await db.selectFrom("notification_conditions").selectAll().where("key", "=", key).executeTakeFirst();
  if (!row) return null;
  const { updated_at: _updated, ...condition } = row;
  return condition;
}

export async function saveCondition(db: Db, condition: Condition, now: Date): Promise<void> {
  const values = { ...condition, updated_at: now.toISOString() };
  await db
    .insertInto("notification_conditions")
    .values(values)
    .onConflict((conflict) => conflict.column("key").doUpdateSet(values))
    .execute();
}
