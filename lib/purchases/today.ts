// One person's purchase checks of one day, for the dashboard: how many, by outcome (a valid code whose support
// had ended counted apart, as the history shows it), and the newest few. The day is the person's day, from
// midnight in his time zone (lib/auth/time-zone.ts), as the history's from/to filters read a bare date in it, so
// the dashboard's "see them all" link lists the same checks.
import "server-only";

import type { PurchaseHistoryEntry } from "@/lib/contract/purchases";
import { dayIn, endOfDayIn, startOfDayIn } from "@/lib/contract/time-zone";
import type { Db } from "@/lib/db";

import { listPurchaseHistory, supportExpiredCount } from "./history";

/** Checks by what they answered: valid with support active (or none), valid with support ended, invalid, failed. */
export interface CheckOutcomeCounts {
  valid: number;
  expired: number;
  invalid: number;
  failed: number;
}

export interface ChecksOfDay {
  /** YYYY-MM-DD, in the time zone asked for. */
  day: string;
  counts: CheckOutcomeCounts;
  total: number;
  /** Newest first, as the history lists them (codes as their last 4 characters only). */
  latest: PurchaseHistoryEntry[];
}

export async function userChecksOfDay(
  db: Db,
  hashKey: string,
  {
    userId,
    timeZone = "UTC",
    now = new Date(),
    latest = 5,
  }: { userId: string; timeZone?: string; now?: Date; latest?: number },
): Promise<ChecksOfDay> {
  const day = dayIn(now, timeZone);
  // ISO strings compared as text: the same on SQLite and PostgreSQL (lib/db/schema.ts).
  const start = startOfDayIn(day, timeZone).toISOString();
  const end = endOfDayIn(day, timeZone).toISOString();
  const [grouped, page] = await Promise.all([
    db
      .selectFrom("purchase_checks")
      .where("user_id", "=", userId)
      .where("checked_at", ">=", start)
      .where("checked_at", "<", end)
      .select((eb) => ["outcome", eb.fn.countAll().as("n"), supportExpiredCount(eb).as("expired")])
      .groupBy("outcome")
      .execute(),
    listPurchaseHistory(db, hashKey, {
      user: userId,
      from: day,
      to: day,
      time_zone: timeZone,
      page: 1,
      perPage: latest,
    }),
  ]);
  // PostgreSQL returns count(*) and sum() as strings.
  const count = (outcome: string) => Number(grouped.find((row) => row.outcome === outcome)?.n ?? 0);
  const expired = Number(grouped.find((row) => row.outcome === "valid")?.expired ?? 0);
  const counts: CheckOutcomeCounts = {
    valid: count("valid") - expired,
    expired,
    invalid: count("invalid"),
    failed: count("failed"),
  };
  return { day, counts, total: counts.valid + counts.expired + counts.invalid + counts.failed, latest: page.rows };
}
