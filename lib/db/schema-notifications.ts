// The notifications' tables (issue 35; migration lib/db/migrations/04-notifications.ts), as Kysely sees them:
// portable as the rest of ./schema.ts, which names them in its Database.
import type { ColumnType } from "kysely";

/** A team's channel (issue 35): a Slack or Teams incoming webhook, or an e-mail address. */
export interface NotificationChannelsTable {
  id: string; // UUID
  kind: string; // NOTIFICATION_CHANNEL_KINDS
  name: string;
  target_sealed: string; // the webhook URL (its path is the secret) or the e-mail address, sealed (lib/seal.ts)
  target_hint: string; // what the pages show: the webhook's host and last 4 characters, or the address
  time_zone: ColumnType<string, string | undefined, string>; // IANA zone: the digest's day and hour are in it
  digest_enabled: ColumnType<number, number | undefined, number>; // 0 | 1
  digest_day: ColumnType<number, number | undefined, number>; // 0 Sunday … 6 Saturday
  digest_hour: ColumnType<number, number | undefined, number>; // 0–23
  disabled: ColumnType<number, number | undefined, number>; // 0 | 1
  created_at: string;
  created_by: string | null; // the admin's email
  updated_at: string;
}

/** The one mail server (id "smtp"). */
export interface NotificationSmtpTable {
  id: string;
  host: string;
  port: number;
  security: string; // "starttls" | "tls"
  username: string | null;
  password_sealed: string | null;
  from_address: string;
  set_at: string;
  set_by: string | null;
}

/** A person's or a channel's topic; `project` and `rule` narrow it ("" for all). */
export interface NotificationSubscriptionsTable {
  id: string; // UUID
  subscriber_kind: string; // NOTIFICATION_SUBSCRIBER_KINDS
  subscriber_id: string; // users.id or notification_channels.id
  topic: string; // NOTIFICATION_TOPICS
  project: ColumnType<string, string | undefined, string>;
  rule: ColumnType<string, string | undefined, string>;
  created_at: string;
}

/** A person's quiet hours (minutes of the day in his time zone; none when null), digest and e-mail switch. */
export interface NotificationPreferencesTable {
  user_id: string;
  email_enabled: ColumnType<number, number | undefined, number>; // 0 | 1
  quiet_start: number | null;
  quiet_end: number | null;
  digest_enabled: ColumnType<number, number | undefined, number>; // 0 | 1
  digest_day: ColumnType<number, number | undefined, number>; // 0 Sunday … 6 Saturday
  digest_hour: ColumnType<number, number | undefined, number>; // 0–23
  updated_at: string;
}

/** What must last before it alerts: a report's result, an upstream's health (key e.g. "upstream:items"). */
export interface NotificationConditionsTable {
  key: string;
  state: string; // the state announced or standing ("good", "bad", "up", "down"…)
  since: string; // when that state began
  candidate: string | null; // a different state seen, not yet lasted
  candidate_since: string | null;
  candidate_count: ColumnType<number, number | undefined, number>;
  alerted: ColumnType<number, number | undefined, number>; // 0 | 1: the bad state was announced (a recovery follows once)
  updated_at: string;
}

/** One message, or several merged, for one recipient over one channel kind. */
export interface NotificationDeliveriesTable {
  id: string; // UUID
  recipient_kind: string; // NOTIFICATION_SUBSCRIBER_KINDS
  recipient_id: string;
  channel_kind: string; // NOTIFICATION_CHANNEL_KINDS ("email" for a person)
  topic: string;
  merge_key: string | null; // repeats with the same key, while held, merge into one message
  messages: string; // JSON NotificationMessage[]
  status: string; // NOTIFICATION_DELIVERY_STATUSES
  attempts: ColumnType<number, number | undefined, number>;
  not_before: string; // held until then (quiet hours, the merge window)
  created_at: string;
  last_attempt_at: string | null;
  last_error: string | null;
  sent_at: string | null;
}

/** One try of a delivery, for its log. */
export interface NotificationAttemptsTable {
  id: string; // UUID
  delivery_id: string;
  at: string;
  ok: number; // 0 | 1
  error: string | null; // why it was not sent, in a sentence (never a secret)
}

/** What the notifications' rules wait for, set by an admin (one row, id "rules"). */
export interface NotificationSettingsTable {
  id: string;
  results_to_last: number;
  down_minutes: number;
  merge_window_minutes: number;
  updated_at: string;
  updated_by: string | null; // the admin's email
}

/** A weekly digest sent (once per subscriber and ISO week, e.g. "2026-W48"). */
export interface NotificationDigestsTable {
  subscriber_kind: string;
  subscriber_id: string;
  week: string;
  sent_at: string;
}

/** When a subscriber's weekly digest is looked at next (lib/notifications/digest-due.ts). */
export interface NotificationDigestDueTable {
  subscriber_kind: string; // NOTIFICATION_SUBSCRIBER_KINDS
  subscriber_id: string;
  due_at: string; // ISO instant: the tick reads the rows due by now
}
