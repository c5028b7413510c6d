// The weekly digests' schedule (issue 35's follow-up, from 2027-01-06): when each subscriber's digest is looked at
// next. A file of its own after 05-second-factors.ts: its name must sort after every migration a store may have
// run (Kysely refuses a store whose run migrations are not the first of the list), and 04-notifications.ts's
// entries have shipped.
import { sql, type Kysely, type Migration } from "kysely";

export function notificationDigests(): Record<string, Migration> {
  return {
    // notification_digest_due: when each subscriber's weekly digest is looked at next
    // (lib/notifications/digest-due.ts), so the tick reads the subscribers due, not every person's day and hour.
    // Empty at first: the tick gives every person and channel a row, due at once, at its first look (its cursors
    // start empty), then only the new ones.
    "2027-01-06-001-notification-digest-due": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("notification_digest_due")
          .addColumn("subscriber_kind", "text", (c) => c.notNull())
          .addColumn("subscriber_id", "text", (c) => c.notNull())
          .addColumn("due_at", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("notification_digest_due_pk", ["subscriber_kind", "subscriber_id"])
          .execute();
        await db.schema
          .createIndex("notification_digest_due_at")
          .on("notification_digest_due")
          .column("due_at")
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await sql`delete from notification_conditions where key in ('cursor:digest_users', 'cursor:digest_channels')`.execute(
          db,
        );
        await db.schema.dropTable("notification_digest_due").execute();
      },
    },
  };
}
