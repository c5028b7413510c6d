// Who may hear of what: each topic's permission (lib/auth/permissions.ts decides per role), so that a viewer is
// never told of purchases and only admins of the upstream keys. Channels are set by admins: every topic.
import { can, type Caller } from "@/lib/auth/permissions";
import { NOTIFICATION_TOPICS, type NotificationTopic, type Permission } from "@/lib/contract/values";

/** The permission a person needs to subscribe to each topic (and to keep receiving it). */
export const TOPIC_PERMISSION: Record<NotificationTopic, Permission> = {
  "report.regressed": "reports:read",
  "report.recovered": "reports:read",
  "upstream.key_rejected": "upstream:manage",
  "upstream.key_restored": "upstream:manage",
  "upstream.down": "items:read",
  "upstream.up": "items:read",
  "bulk.finished": "purchases:check",
  "purchase.revoked": "purchases:check",
  "purchase.support_expiring": "purchases:check",
  "licence.limit_reached": "purchases:validate",
  // Sent to the token's owner only; every role has items:read, and anyone may own a token.
  "token.quota_reached": "items:read",
};

/** Whether this person may have this topic. */
export function mayHaveTopic(caller: Caller, topic: NotificationTopic): boolean {
  return can(caller, TOPIC_PERMISSION[topic]);
}

/** The topics a person may subscribe to, in the list's order. */
export function topicsFor(caller: Caller): NotificationTopic[] {
  return NOTIFICATION_TOPICS.filter((topic) => mayHaveTopic(caller, topic));
}

/** Topics that may be narrowed to one project and one alert rule. */
export function isReportTopic(topic: NotificationTopic): boolean {
  return topic === "report.regressed" || topic === "report.recovered";
}

/** What each topic is, in the words of the person's page. */
export const TOPIC_WORDS: Record<NotificationTopic, string> = {
  "report.regressed": "A page's result got worse, and stayed so",
  "report.recovered": "That page is back (once, after its regression was sent)",
  "upstream.key_rejected": "An upstream rejected its key",
  "upstream.key_restored": "The key works again",
  "upstream.down": "An upstream has been down for some minutes",
  "upstream.up": "It answers again",
  "bulk.finished": "Your bulk check is done",
  "purchase.revoked": "A purchase was revoked (a sale reversed)",
  "purchase.support_expiring": "A purchase's support ends soon",
  "licence.limit_reached": "A copy was refused for the activation limit",
  "token.quota_reached": "One of your API tokens used its monthly quota",
};
