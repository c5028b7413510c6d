// What a notification says, whoever it goes to and however it is sent (lib/notifications): the rules that decide
// what is sent write messages; the senders (Slack, Microsoft Teams, e-mail) render them. Repeats held together
// (the merge window, quiet hours) are sent as one: summaryOf names them ("acme.io/pricing got worse, and 2 more
// pages of acme.io").
import type { NotificationTopic } from "@/lib/contract/values";

/** A weekly digest and a channel's "Send a test message" are messages too, never subscribed to. */
export type MessageTopic = NotificationTopic | "digest" | "test";

export interface NotificationMessage {
  topic: MessageTopic;
  /** One line: what happened ("acme.io/pricing went from good to bad"). Never a full purchase code, key or secret. */
  title: string;
  /** What it means, and since when, in a sentence or two. */
  text: string;
  /** When the condition began (ISO 8601). */
  since: string;
  /** The page to open, a path of the portal ("/reports/12"); senders make it absolute with PUBLIC_ORIGIN. */
  link: string;
  tone: "bad" | "good" | "info";
  /** What repeats are grouped by in a summary ("acme.io"): repeats with the same topic and group merge. */
  group?: string;
  /** Short facts shown as a list (Slack fields, Teams FactSet, an e-mail's table). */
  facts?: Array<{ label: string; value: string }>;
  /** A digest's parts: a heading and its lines, each optionally linked. */
  sections?: Array<{ heading: string; lines: Array<{ text: string; link?: string }> }>;
}

/** What each topic's repeats are called in a summary. */
const REPEATS: Record<MessageTopic, string> = {
  "report.regressed": "pages",
  "report.recovered": "pages",
  "upstream.key_rejected": "keys",
  "upstream.key_restored": "keys",
  "upstream.down": "services",
  "upstream.up": "services",
  "bulk.finished": "bulk checks",
  "purchase.revoked": "purchases",
  "purchase.support_expiring": "purchases",
  "licence.limit_reached": "licences",
  "token.quota_reached": "tokens",
  digest: "digests",
  test: "test messages",
};

/** One line for one or several messages held together: the first's title, and how many more. */
export function summaryOf(messages: readonly NotificationMessage[]): string {
  const [first, ...rest] = messages;
  if (!first) return "";
  if (rest.length === 0) return first.title;
  const noun = REPEATS[first.topic];
  return `${first.title}, and ${rest.length} more ${rest.length === 1 ? noun.replace(/s$/, "") : noun}${first.group ? ` of ${first.group}` : ""}`;
}
