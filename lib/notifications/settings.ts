// What the rules wait for before they speak: how many results a report's change must last, how many minutes an
// upstream must be down, how long a message waits for repeats to merge with it. Set by an admin (one row of
// notification_settings); these defaults until then.
import type { NotificationSettingsBody, NotificationSettingsView } from "@/lib/contract/notification-subscriptions";
import type { Db } from "@/lib/db";

export interface NotificationSettings {
  /** A report's changed result alerts once it has lasted this many results (1: at once). */
  resultsToLast: number;
  /** An upstream is "down" once it has been unavailable this many minutes. */
  downMinutes: number;
  /** A message is held this long (quiet hours may hold it longer) so that repeats merge into it. */
  mergeWindowMs: number;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  resultsToLast: 2,
  downMinutes: 5,
  mergeWindowMs: 2 * 60_000,
};

const ROW = "rules";

/** The settings in force: the admin's, or the defaults. */
export async function getNotificationSettings(db: Db): Promise<NotificationSettings> {
  const row = await db.selectFrom("notification_settings").selectAll().where("id", "=", ROW).executeTakeFirst();
  if (!row) return DEFAULT_NOTIFICATION_SETTINGS;
  return {
    resultsToLast: row.results_to_last,
    downMinutes: row.down_minutes,
    mergeWindowMs: row.merge_window_minutes * 60_000,
  };
}

/** The settings as the API shows them. */
export async function notificationSettingsView(db: Db): Promise<NotificationSettingsView> {
  const row = await db.selectFrom("notification_settings").selectAll().where("id", "=", ROW).executeTakeFirst();
  const settings = await getNotificationSettings(db);
  return {
    results_to_last: settings.resultsToLast,
    down_minutes: settings.downMinutes,
    merge_window_minutes: settings.mergeWindowMs / 60_000,
    updated_at: row?.updated_at ?? null,
    updated_by: row?.updated_by ?? null,
  };
}

export async function setNotificationSettings(
  db: Db,
  body: NotificationSettingsBody,
  by: string,
  now = new Date(),
): Promise<NotificationSettingsView> {
  const values = { ...body, updated_at: now.toISOString(), updated_by: by };
  await db
    .insertInto("notification_settings")
    .values({ id: ROW, ...values })
    .onConflict((conflict) => conflict.column("id").doUpdateSet(values))
    .execute();
  return notificationSettingsView(db);
}
