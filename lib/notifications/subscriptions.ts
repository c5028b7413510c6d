// Who subscribes to what, and a person's preferences: read and replaced as a whole (a page saves its whole form).
// A person may hold only the topics his role allows (./topics.ts); a channel, set by admins, any.
import "server-only";

import { randomUUID } from "node:crypto";

import type {
  NotificationPreferences,
  NotificationPreferencesBody,
  NotificationSubscription,
} from "@/lib/contract/notification-subscriptions";
import { isOneOf, NOTIFICATION_TOPICS, type NotificationSubscriberKind } from "@/lib/contract/values";
import { writeTransaction, type Db } from "@/lib/db";

import { digestDueNow, forgetDigestDue } from "./digest-due";
import { hhmm, minuteOf } from "./quiet-hours";

type Kind = NotificationSubscriberKind;

/** A subscriber's subscriptions, in the topics' order. */
export async function getSubscriptions(db: Db, kind: Kind, id: string): Promise<NotificationSubscription[]> {
  const rows = await db
    .selectFrom("notification_subscriptions")
    .select(["topic", "project", "rule"])
    .where("subscriber_kind", "=", kind)
    .where("subscriber_id", "=", id)
    .execute();
  return rows
    .filter((row) => isOneOf(NOTIFICATION_TOPICS, row.topic))
    .map((row): NotificationSubscription => ({
      topic: row.topic as NotificationSubscription["topic"],
      project: row.project === "" ? null : row.project,
      rule: row.rule === "any" || row.rule === "to_bad" ? row.rule : null,
    }))
    .sort(
      (a, b) =>
        NOTIFICATION_TOPICS.indexOf(a.topic) - NOTIFICATION_TOPICS.indexOf(b.topic) ||
        (a.project ?? "").localeCompare(b.project ?? "") ||
        (a.rule ?? "").localeCompare(b.rule ?? ""),
    );
}

/** Replaces a subscriber's subscriptions (duplicates count once); returns them as stored. */
export async function setSubscriptions(
  db: Db,
  kind: Kind,
  id: string,
  subscriptions: readonly NotificationSubscription[],
  now = new Date(),
): Promise<NotificationSubscription[]> {
  const unique = new Map(subscriptions.map((s) => [`${s.topic} ${s.project ?? ""} ${s.rule ?? ""}`, s]));
  await writeTransaction(db, async (trx) => {
    await trx
      .deleteFrom("notification_subscriptions")
      .where("subscriber_kind", "=", kind)
      .where("subscriber_id", "=", id)
      .execute();
    if (unique.size === 0) return;
    await trx
      .insertInto("notification_subscriptions")
      .values(
        [...unique.values()].map((s) => ({
          id: randomUUID(),
          subscriber_kind: kind,
          subscriber_id: id,
          topic: s.topic,
          project: s.project ?? "",
          rule: s.rule ?? "",
          created_at: now.toISOString(),
        })),
      )
      .execute();
  });
  return getSubscriptions(db, kind, id);
}

/** Whether a channel exists (./channels.ts). */
export async function channelExists(db: Db, id: string): Promise<boolean> {
  return Boolean(await db.selectFrom("notification_channels").select("id").where("id", "=", id).executeTakeFirst());
}

/** A person's preferences (the defaults until he saves them), with the zone they are read in. */
export async function getPreferences(
  db: Db,
  user: { id: string; timeZone: string | null },
): Promise<NotificationPreferences> {
  const row = await db
    .selectFrom("notification_preferences")
    .selectAll()
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  const quiet =
    row && row.quiet_start !== null && row.quiet_end !== null
      ? { start: hhmm(row.quiet_start), end: hhmm(row.quiet_end) }
      : null;
  return {
    email_enabled: (row?.email_enabled ?? 1) === 1,
    quiet_hours: quiet,
    digest: { enabled: (row?.digest_enabled ?? 1) === 1, day: row?.digest_day ?? 1, hour: row?.digest_hour ?? 9 },
    time_zone: user.timeZone ?? "UTC",
    time_zone_source: user.timeZone ? "picked" : "default",
  };
}

export async function setPreferences(
  db: Db,
  user: { id: string; timeZone: string | null },
  body: NotificationPreferencesBody,
  now = new Date(),
): Promise<NotificationPreferences> {
  const values = {
    email_enabled: body.email_enabled ? 1 : 0,
    quiet_start: body.quiet_hours ? minuteOf(body.quiet_hours.start) : null,
    quiet_end: body.quiet_hours ? minuteOf(body.quiet_hours.end) : null,
    digest_enabled: body.digest.enabled ? 1 : 0,
    digest_day: body.digest.day,
    digest_hour: body.digest.hour,
    updated_at: now.toISOString(),
  };
  await db
    .insertInto("notification_preferences")
    .values({ user_id: user.id, ...values })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet(values))
    .execute();
  // His digest's day, hour or switch may have changed: the next tick works out when it is due.
  await digestDueNow(db, "user", user.id, now);
  return getPreferences(db, user);
}

/**
 * Forgets people removed from Gatehouse: their subscriptions, preferences, digests sent and due, and every delivery
 * to them with its attempts — held and pending ones too, so nothing is sent to an address no longer in Gatehouse.
 * A person's deliveries appear in no log (only a channel's have one), so none is kept as `dropped`. Call it with the
 * removal (`npm run users -- remove-demo-accounts`, the one place people are deleted).
 */
export async function forgetPeople(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await writeTransaction(db, async (trx) => {
    await forgetSubscribers(trx, "user", ids);
    await trx.deleteFrom("notification_preferences").where("user_id", "in", ids).execute();
  });
}

/**
 * What a person or channel leaves behind in this room, deleted (inside the caller's transaction): its deliveries with
 * their attempts, its subscriptions, its digests sent and due. (A person's preferences and a channel's row are the
 * caller's.)
 */
export async function forgetSubscribers(
  trx: Db,
  kind: NotificationSubscriberKind,
  ids: readonly string[],
): Promise<void> {
  const deliveries = trx
    .selectFrom("notification_deliveries")
    .select("id")
    .where("recipient_kind", "=", kind)
    .where("recipient_id", "in", ids);
  await trx.deleteFrom("notification_attempts").where("delivery_id", "in", deliveries).execute();
  await trx
    .deleteFrom("notification_deliveries")
    .where("recipient_kind", "=", kind)
    .where("recipient_id", "in", ids)
    .execute();
  for (const table of ["notification_subscriptions", "notification_digests"] as const)
    await trx.deleteFrom(table).where("subscriber_kind", "=", kind).where("subscriber_id", "in", ids).execute();
  await forgetDigestDue(trx, kind, ids);
}
