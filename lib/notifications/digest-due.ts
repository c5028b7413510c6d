// When each subscriber's weekly digest is due next, stored (notification_digest_due), so that the tick reads only
// the subscribers due instead of every person's day and hour. A digest is due from its day and hour (in the
// subscriber's zone) until the end of that ISO week (Monday to Sunday, in his zone): a week in which no tick ran at
// that hour still gets it, late, at the next tick; a week that ended without one does not get it in the next.
// A row says "look at him at `due_at`"; the tick then decides from his current settings (./digest.ts) and writes
// the next instant. Whatever changes when he is due (his preferences, his zone, a channel's settings) sets his row
// due now, and the tick works the rest out. People and channels new since the last look are found by their
// created_at, through a cursor (never by reading everyone); the one a store starts with reads all of them once.
import "server-only";

import { sql } from "kysely";
import { DateTime } from "luxon";

import type { NotificationSubscriberKind } from "@/lib/contract/values";
import type { Db } from "@/lib/db";

import { wallClock } from "./quiet-hours";

const DAY_MS = 86_400_000;

/** The ISO week of a calendar date ("2026-11-28" → "2026-W48"). */
export function isoWeek(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const weekday = (day.getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(day.getTime() + (3 - weekday) * DAY_MS);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = 1 + Math.floor((thursday.getTime() - yearStart) / DAY_MS / 7);
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/** A week's minute, Monday 00:00 = 0, of weekday `day` (0 Sunday … 6 Saturday) at minute `minute`. */
const weekMinute = (day: number, minute: number) => ((day + 6) % 7) * 1440 + minute;

/**
 * The ISO week whose digest set for `day` (0 Sunday) at `hour` is due at `now` in `zone`: from that day and hour
 * until the week's end (null before them).
 */
export function digestWeekDue(now: Date, zone: string, day: number, hour: number): string | null {
  const wall = wallClock(now, zone);
  if (weekMinute(wall.weekday, wall.minute) < weekMinute(day, hour * 60)) return null;
  return isoWeek(wall.date);
}

/** The instant of `day` (0 Sunday) at `hour` in `zone`, in the ISO week of `at` (the next week's when `weeks` is 1). */
export function digestInstant(at: Date, zone: string, day: number, hour: number, weeks = 0): Date {
  // Luxon's weeks are ISO weeks (Monday first); an hour the clock skips is taken at the first minute after it.
  return DateTime.fromJSDate(at, { zone })
    .startOf("week")
    .plus({ weeks, days: (day + 6) % 7 })
    .set({ hour })
    .toJSDate();
}

/** When to look at a subscriber next after `now`: his instant this week if it is still to come, else next week's. */
export function nextDigestDue(now: Date, zone: string, day: number, hour: number): Date {
  const thisWeek = digestInstant(now, zone, day, hour);
  return thisWeek.getTime() > now.getTime() ? thisWeek : digestInstant(now, zone, day, hour, 1);
}

type Kind = NotificationSubscriberKind;

/** Looks at the subscriber at the next tick (his settings changed, or he is new): his row due `now`. */
export async function digestDueNow(db: Db, kind: Kind, id: string, now = new Date()): Promise<void> {
  const dueAt = now.toISOString();
  await db
    .insertInto("notification_digest_due")
    .values({ subscriber_kind: kind, subscriber_id: id, due_at: dueAt })
    .onConflict((conflict) => conflict.columns(["subscriber_kind", "subscriber_id"]).doUpdateSet({ due_at: dueAt }))
    .execute();
}

/** Writes when the subscriber is due next. */
export async function setDigestDue(db: Db, kind: Kind, id: string, dueAt: Date): Promise<void> {
  await db
    .updateTable("notification_digest_due")
    .set({ due_at: dueAt.toISOString() })
    .where("subscriber_kind", "=", kind)
    .where("subscriber_id", "=", id)
    .execute();
}

/** Forgets a subscriber's row (a person or a channel removed). */
export async function forgetDigestDue(db: Db, kind: Kind, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom("notification_digest_due")
    .where("subscriber_kind", "=", kind)
    .where("subscriber_id", "in", ids)
    .execute();
}

/** The cursors of the people and channels looked at (./rules.ts keeps its cursor in the same table). */
export const DIGEST_CURSORS = { user: "cursor:digest_users", channel: "cursor:digest_channels" } as const;
/** A row written by another instance a little late (its created_at before the cursor) is still found. */
const CURSOR_MARGIN_MS = 3_600_000;

/** The people's or channels' ids created since `from`, and whether each has a row. */
async function createdSince(
  db: Db,
  kind: Kind,
  from: string,
): Promise<Array<{ id: string; created_at: string; known: string | null }>> {
  const known = (id: "users.id" | "notification_channels.id") =>
    db
      .selectFrom("notification_digest_due")
      .select("subscriber_id")
      .where("subscriber_kind", "=", kind)
      .where("subscriber_id", "=", sql.ref<string>(id))
      .as("known");
  return kind === "user"
    ? db
        .selectFrom("users")
        .select(["users.id", "users.created_at", known("users.id")])
        .where("created_at", ">=", from)
        .execute()
    : db
        .selectFrom("notification_channels")
        .select(["notification_channels.id", "notification_channels.created_at", known("notification_channels.id")])
        .where("created_at", ">=", from)
        .execute();
}

/** Gives every person and channel created since the last look a row, due now. */
async function addNewSubscribers(db: Db, now: Date): Promise<void> {
  for (const kind of ["user", "channel"] as const) {
    const key = DIGEST_CURSORS[kind];
    const cursor = await db
      .selectFrom("notification_conditions")
      .select("state")
      .where("key", "=", key)
      .executeTakeFirst();
    const from = cursor?.state ? new Date(Date.parse(cursor.state) - CURSOR_MARGIN_MS).toISOString() : "";
    const rows = await createdSince(db, kind, from);
    const fresh = rows.filter((row) => row.known === null);
    if (fresh.length > 0)
      await db
        .insertInto("notification_digest_due")
        .values(fresh.map((row) => ({ subscriber_kind: kind, subscriber_id: row.id, due_at: now.toISOString() })))
        .onConflict((conflict) => conflict.columns(["subscriber_kind", "subscriber_id"]).doNothing())
        .execute();
    const newest = rows.reduce((max, row) => (row.created_at > max ? row.created_at : max), cursor?.state ?? "");
    if (newest === (cursor?.state ?? "")) continue;
    const at = now.toISOString();
    await db
      .insertInto("notification_conditions")
      .values({ key, state: newest, since: at, candidate_count: 0, alerted: 0, updated_at: at })
      .onConflict((conflict) => conflict.column("key").doUpdateSet({ state: newest, updated_at: at }))
      .execute();
  }
}

/** The subscribers due at `now` (those new since the last look among them). */
export async function dueSubscribers(db: Db, now: Date): Promise<Array<{ kind: Kind; id: string }>> {
  await addNewSubscribers(db, now);
  const rows = await db
    .selectFrom("notification_digest_due")
    .select(["subscriber_kind", "subscriber_id"])
    .where("due_at", "<=", now.toISOString())
    .orderBy("due_at")
    .execute();
  return rows.flatMap((row) =>
    row.subscriber_kind === "user" || row.subscriber_kind === "channel"
      ? [{ kind: row.subscriber_kind, id: row.subscriber_id }]
      : [],
  );
}
