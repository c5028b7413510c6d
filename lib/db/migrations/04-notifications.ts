// Notifications where people work (issue 35, from 2026-12-28): team channels and the mail server, who subscribes
// to what, the conditions that must last before they alert, each message's delivery, and the weekly digests sent.
import { sql, type Kysely, type Migration } from "kysely";

export function notifications(): Record<string, Migration> {
  return {
    // - notification_channels: a team's Slack or Teams incoming webhook (its URL is the secret: sealed, shown once)
    //   or e-mail address, with the team's time zone and digest day and hour.
    // - notification_smtp: the one mail server (its password sealed).
    // - notification_subscriptions: a person's or a channel's topic, optionally for one project and one rule
    //   ("" for all); unique per subscriber, topic, project and rule.
    // - notification_preferences: a person's quiet hours (minutes of the day in his time zone), digest and e-mail.
    // - notification_conditions: what must last before it alerts (a report's result, an upstream's health): its
    //   state, the candidate state not yet lasted, and whether its bad state was announced (so a recovery is sent
    //   once, and only after an alert).
    // - notification_deliveries: one message (or several merged) for one recipient, held, pending or done.
    // - notification_digests: which week's digest each subscriber was sent (once).
    "2026-12-28-001-notifications": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("notification_channels")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("target_sealed", "text", (c) => c.notNull())
          .addColumn("target_hint", "text", (c) => c.notNull())
          .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
          .addColumn("digest_enabled", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("digest_day", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("digest_hour", "integer", (c) => c.notNull().defaultTo(9))
          .addColumn("disabled", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("created_by", "text")
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("notification_smtp")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("host", "text", (c) => c.notNull())
          .addColumn("port", "integer", (c) => c.notNull())
          .addColumn("security", "text", (c) => c.notNull())
          .addColumn("username", "text")
          .addColumn("password_sealed", "text")
          .addColumn("from_address", "text", (c) => c.notNull())
          .addColumn("set_at", "text", (c) => c.notNull())
          .addColumn("set_by", "text")
          .execute();
        await db.schema
          .createTable("notification_subscriptions")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("subscriber_kind", "text", (c) => c.notNull())
          .addColumn("subscriber_id", "text", (c) => c.notNull())
          .addColumn("topic", "text", (c) => c.notNull())
          .addColumn("project", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("rule", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("notification_subscriptions_unique")
          .on("notification_subscriptions")
          .columns(["subscriber_kind", "subscriber_id", "topic", "project", "rule"])
          .unique()
          .execute();
        await db.schema
          .createIndex("notification_subscriptions_topic")
          .on("notification_subscriptions")
          .columns(["topic"])
          .execute();
        await db.schema
          .createTable("notification_preferences")
          .addColumn("user_id", "text", (c) => c.primaryKey())
          .addColumn("email_enabled", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("quiet_start", "integer")
          .addColumn("quiet_end", "integer")
          .addColumn("digest_enabled", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("digest_day", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("digest_hour", "integer", (c) => c.notNull().defaultTo(9))
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("notification_conditions")
          .addColumn("key", "text", (c) => c.primaryKey())
          .addColumn("state", "text", (c) => c.notNull())
          .addColumn("since", "text", (c) => c.notNull())
          .addColumn("candidate", "text")
          .addColumn("candidate_since", "text")
          .addColumn("candidate_count", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("alerted", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("notification_deliveries")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("recipient_kind", "text", (c) => c.notNull())
          .addColumn("recipient_id", "text", (c) => c.notNull())
          .addColumn("channel_kind", "text", (c) => c.notNull())
          .addColumn("topic", "text", (c) => c.notNull())
          .addColumn("merge_key", "text")
          .addColumn("messages", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("not_before", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("last_attempt_at", "text")
          .addColumn("last_error", "text")
          .addColumn("sent_at", "text")
          .execute();
        await db.schema
          .createIndex("notification_deliveries_due")
          .on("notification_deliveries")
          .columns(["status", "not_before"])
          .execute();
        await db.schema
          .createIndex("notification_deliveries_merge")
          .on("notification_deliveries")
          .columns(["recipient_kind", "recipient_id", "merge_key", "status"])
          .execute();
        await db.schema
          .createTable("notification_digests")
          .addColumn("subscriber_kind", "text", (c) => c.notNull())
          .addColumn("subscriber_id", "text", (c) => c.notNull())
          .addColumn("week", "text", (c) => c.notNull())
          .addColumn("sent_at", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("notification_digests_pk", ["subscriber_kind", "subscriber_id", "week"])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const table of [
          "notification_digests",
          "notification_deliveries",
          "notification_conditions",
          "notification_preferences",
          "notification_subscriptions",
          "notification_smtp",
          "notification_channels",
        ])
          await db.schema.dropTable(table).execute();
      },
    },
    // notification_attempts: each try of a delivery (when, whether it went, why not), for the delivery log, as
    // webhook_attempts is for webhooks.
    "2026-12-28-002-notification-attempts": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("notification_attempts")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("delivery_id", "text", (c) => c.notNull())
          .addColumn("at", "text", (c) => c.notNull())
          .addColumn("ok", "integer", (c) => c.notNull())
          .addColumn("error", "text")
          .execute();
        await db.schema
          .createIndex("notification_attempts_delivery")
          .on("notification_attempts")
          .columns(["delivery_id", "at"])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("notification_attempts").execute();
      },
    },
    // - notification_settings: what the rules wait for, set by an admin (one row, id "rules"; the defaults of
    //   lib/notifications/settings.ts until then).
    // - The rules read every result recorded once, in order (lib/notifications/rules.ts readNewResults): they start
    //   after the history there is, so that an upgrade does not announce old changes.
    "2026-12-28-003-notification-settings": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("notification_settings")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("results_to_last", "integer", (c) => c.notNull())
          .addColumn("down_minutes", "integer", (c) => c.notNull())
          .addColumn("merge_window_minutes", "integer", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addColumn("updated_by", "text")
          .execute();
        const now = new Date().toISOString();
        await sql`insert into notification_conditions (key, state, since, candidate_count, alerted, updated_at)
          select 'cursor:report_results', cast(coalesce(max(id), 0) as text), ${now}, 0, 0, ${now} from report_results`.execute(
          db,
        );
      },
      async down(db: Kysely<unknown>) {
        await sql`delete from notification_conditions where key = 'cursor:report_results'`.execute(db);
        await db.schema.dropTable("notification_settings").execute();
      },
    },
  };
}
