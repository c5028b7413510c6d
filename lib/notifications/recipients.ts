// Who receives a message of a topic: each subscriber of it (narrowed to the project and the alert rule where the
// subscription says so), once. A person by e-mail when his e-mail is on, he is not disabled and his role still
// allows the topic (roles change after subscribing); a channel when it is not disabled, by its kind.
import "server-only";

import {
  isOneOf,
  NOTIFICATION_CHANNEL_KINDS,
  ROLES,
  type AlertRule,
  type NotificationChannelKind,
  type NotificationSubscriberKind,
  type NotificationTopic,
} from "@/lib/contract/values";
import type { Db } from "@/lib/db";

import { mayHaveTopic } from "./topics";

export interface Recipient {
  kind: NotificationSubscriberKind;
  id: string;
  /** "email" for a person; the channel's kind. */
  channelKind: NotificationChannelKind;
  /** A person's zone and quiet hours (none for a channel: a team's channel has no quiet hours). */
  zone: string | null;
  quietStart: number | null;
  quietEnd: number | null;
}

export interface Narrowing {
  /** The report's project (null: a report outside projects, only all-project subscriptions hear of it). */
  project?: string | null;
  /** Whether a subscription's rule ("" for the project's own) wants this change. */
  ruleWants?: (rule: AlertRule | "") => boolean;
  /** Only this person (a bulk job's owner). */
  onlyUser?: string;
}

const RULES = ["any", "to_bad", "off"] as const;

export async function recipientsOf(db: Db, topic: NotificationTopic, narrowing: Narrowing = {}): Promise<Recipient[]> {
  let query = db
    .selectFrom("notification_subscriptions")
    .select(["subscriber_kind", "subscriber_id", "project", "rule"])
    .where("topic", "=", topic);
  if (narrowing.project !== undefined)
    query = query.where((eb) =>
      narrowing.project === null ? eb("project", "=", "") : eb("project", "in", ["", narrowing.project!]),
    );
  if (narrowing.onlyUser !== undefined)
    query = query.where("subscriber_kind", "=", "user").where("subscriber_id", "=", narrowing.onlyUser);
  const subscriptions = (await query.execute()).filter(
    (s) => !narrowing.ruleWants || narrowing.ruleWants(isOneOf(RULES, s.rule) ? s.rule : ""),
  );
  const userIds = [...new Set(subscriptions.filter((s) => s.subscriber_kind === "user").map((s) => s.subscriber_id))];
  const channelIds = [
    ...new Set(subscriptions.filter((s) => s.subscriber_kind === "channel").map((s) => s.subscriber_id)),
  ];
  const recipients: Recipient[] = [];
  if (userIds.length > 0) {
    const users = await db
      .selectFrom("users")
      .leftJoin("notification_preferences", "notification_preferences.user_id", "users.id")
      .select([
        "users.id",
        "users.role",
        "users.time_zone",
        "notification_preferences.email_enabled",
        "notification_preferences.quiet_start",
        "notification_preferences.quiet_end",
      ])
      .where("users.id", "in", userIds)
      .where("users.disabled", "=", 0)
      .execute();
    for (const user of users) {
      if (user.email_enabled === 0) continue;
      if (!isOneOf(ROLES, user.role) || !mayHaveTopic({ role: user.role }, topic)) continue;
      recipients.push({
        kind: "user",
        id: user.id,
        channelKind: "email",
        zone: user.time_zone ?? "UTC",
        quietStart: user.quiet_start ?? null,
        quietEnd: user.quiet_end ?? null,
      });
    }
  }
  if (channelIds.length > 0) {
    const channels = await db
      .selectFrom("notification_channels")
      .select(["id", "kind"])
      .where("id", "in", channelIds)
      .where("disabled", "=", 0)
      .execute();
    for (const channel of channels) {
      // A kind this code does not know (a newer version's) is not sent to.
      if (!isOneOf(NOTIFICATION_CHANNEL_KINDS, channel.kind)) continue;
      recipients.push({
        kind: "channel",
        id: channel.id,
        channelKind: channel.kind,
        zone: null,
        quietStart: null,
        quietEnd: null,
      });
    }
  }
  return recipients;
}
