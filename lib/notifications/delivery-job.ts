// Notification deliveries as jobs (lib/jobs), on the webhooks' model (lib/webhooks/delivery-job.ts): each attempt
// is a job whose id names the delivery, the attempt and its due time, so queueing it again (the sweep, a kick) is
// harmless, and a job made stale by another run finds its attempt made and stops. An attempt renders the messages
// for the recipient's channel (Slack, Teams, e-mail), sends them, records the outcome once, and queues the next
// attempt when there is one. A recipient gone or disabled, or a person whose e-mail is off, is dropped with the
// reason, never retried.
import "server-only";

import { isOneOf, NOTIFICATION_TOPICS } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { defineJob, type JobDefinition } from "@/lib/jobs";
import {
  attemptJobOf,
  attemptPayload,
  queueAttempts,
  type AttemptPayload,
  type QueueAttempt,
} from "@/lib/jobs/attempts";
import { perTargetCap } from "@/lib/jobs/per-target-cap";
import { logEvent } from "@/lib/log";
import { resolveTarget, sendToTarget } from "@/lib/webhooks/target";

import { channelToSend, type NotificationSettings } from "./channels";
import {
  deliveryToSend,
  recordAttempt,
  type AttemptResult,
  type DeliveryToSend,
  type DueDelivery,
  type NotificationTimings,
} from "./deliveries";
import { renderMail } from "./email";
import { isOpenable } from "./links";
import type { NotificationMessage } from "./message";
import { slackPayload } from "./slack";
import { mailServer, sendMail } from "./smtp";
import { teamsPayload } from "./teams";
import { unsubscribeLinks, unsubscribeToken, type UnsubscribeScope } from "./unsubscribe";

const KIND = "notification-delivery";
/** Deliveries sent at once (at most MAX_SENDS_PER_CHANNEL of them to one recipient by one process). */
const CONCURRENT_SENDS = 8;
/**
 * Sends to one recipient (a channel, or a person's mailbox) at once, at most, per process, as webhooks cap an
 * endpoint: one slow or unreachable channel holds at most these of the sending slots, and the others go on.
 */
export const MAX_SENDS_PER_CHANNEL = 2;
/** A delivery to a recipient already at its cap here waits this long before it asks again. */
const CHANNEL_BUSY_WAIT_MS = 500;

export interface NotificationJobDeps {
  db: () => Promise<Db>;
  settings: () => Promise<NotificationSettings>;
  timings: () => NotificationTimings;
  /** Adds the job of a delivery's next attempt (trigger() in production). */
  queue: QueueAttempt;
}

const dueOf = (delivery: DueDelivery) => ({ id: delivery.id, attempts: delivery.attempts, dueAt: delivery.notBefore });

/** The job of the attempt `delivery` is due to make next. */
export function attemptJob(delivery: DueDelivery) {
  return attemptJobOf("notification", dueOf(delivery));
}

/** Queues a job for each delivery (lib/jobs/attempts.ts). */
export async function queueDeliveries(deliveries: readonly DueDelivery[], queue: QueueAttempt): Promise<void> {
  await queueAttempts("notification", deliveries.map(dueOf), queue);
}

/** The kind: one attempt of one delivery. */
export function notificationJob(deps: NotificationJobDeps): JobDefinition<AttemptPayload> {
  /** This process's sends under way, by recipient (lib/jobs/per-target-cap.ts). */
  const cap = perTargetCap(MAX_SENDS_PER_CHANNEL, CHANNEL_BUSY_WAIT_MS);
  return defineJob({
    kind: KIND,
    payload: attemptPayload,
    concurrency: CONCURRENT_SENDS,
    async handle({ delivery: id, attempts }) {
      const db = await deps.db();
      const delivery = await deliveryToSend(db, id, attempts);
      // Made already, sent, failed or dropped.
      if (!delivery) return { kind: "done" };
      return cap.run(`${delivery.recipientKind}:${delivery.recipientId}`, async () => {
        await attemptDelivery(db, delivery, deps);
        return { kind: "done" };
      });
    },
  });
}

/** Makes one attempt, records it and queues the next; the attempt's result (null: another run recorded it first). */
export async function attemptDelivery(
  db: Db,
  delivery: DeliveryToSend,
  deps: NotificationJobDeps,
): Promise<AttemptResult | null> {
  const settings = await deps.settings();
  const result = await send(db, delivery, settings).catch((error: unknown): AttemptResult => ({
    ok: false,
    error: `not sent: ${error instanceof Error ? error.message.slice(0, 200) : "the send failed"}`,
  }));
  const { recorded, next } = await recordAttempt(db, delivery, result, deps.timings());
  if (!recorded) return null;
  logEvent(result.ok ? "info" : "warn", "notification_attempt", {
    delivery: delivery.id,
    recipient_kind: delivery.recipientKind,
    recipient: delivery.recipientId,
    channel: delivery.channelKind,
    attempt: delivery.attempts + 1,
    ok: result.ok,
    ...(!result.ok && { error: result.error, dropped: result.drop === true }),
  });
  if (next) await queueDeliveries([next], deps.queue);
  return result;
}

const SCOPE_WORDS: Partial<Record<UnsubscribeScope, string>> = {
  all: "all e-mail from Gatehouse",
  digest: "the weekly digest",
};

const drop = (error: string): AttemptResult => ({ ok: false, error, drop: true });

async function send(db: Db, delivery: DeliveryToSend, settings: NotificationSettings): Promise<AttemptResult> {
  if (delivery.messages.length === 0) return drop("dropped: it holds no message");
  if (delivery.recipientKind === "channel") {
    const found = await channelToSend(db, delivery.recipientId, settings.sealKey);
    if (!found) return drop("dropped: the channel was removed");
    if (!found.channel.enabled) return drop("dropped: the channel is disabled");
    if (found.target === null)
      return drop("dropped: the channel's address cannot be read (the portal's data key changed); set it again");
    if (found.channel.kind === "email")
      return sendEmail(db, found.target.split(/,\s*/), delivery.messages, settings, null);
    const body = JSON.stringify(
      found.channel.kind === "slack"
        ? slackPayload(delivery.messages, settings.publicOrigin)
        : teamsPayload(delivery.messages, settings.publicOrigin),
    );
    const checked = await resolveTarget(found.target, settings);
    // The reason names the host or address at most, never the URL's path (the secret).
    if (!checked.ok) return { ok: false, error: `not sent: the webhook URL ${checked.reason}` };
    const answer = await sendToTarget(checked.target, {}, body);
    if (answer.ok) return { ok: true };
    const said = answer.excerpt ? ` (${answer.excerpt.slice(0, 200).replace(/\s+/g, " ")})` : "";
    return {
      ok: false,
      error: `not sent: ${answer.error ?? `the ${found.channel.kind === "slack" ? "Slack" : "Teams"} webhook answered ${answer.status}${said}`}`,
    };
  }
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "disabled"])
    .where("id", "=", delivery.recipientId)
    .executeTakeFirst();
  if (!user) return drop("dropped: the person is no longer in Gatehouse");
  if (Number(user.disabled) === 1) return drop("dropped: the person's account is disabled");
  const preferences = await db
    .selectFrom("notification_preferences")
    .select(["email_enabled"])
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (preferences && Number(preferences.email_enabled) === 0) return drop("dropped: the person switched e-mail off");
  const scope: UnsubscribeScope = isOneOf(NOTIFICATION_TOPICS, delivery.topic)
    ? delivery.topic
    : delivery.topic === "digest"
      ? "digest"
      : "all";
  return sendEmail(db, [user.email], delivery.messages, settings, { userId: user.id, scope });
}

/** Renders and sends a mail; to a person, with the one-click unsubscribe (RFC 8058) for `scope`. */
export async function sendEmail(
  db: Db,
  to: string[],
  messages: readonly NotificationMessage[],
  settings: NotificationSettings,
  person: { userId: string; scope: UnsubscribeScope } | null,
): Promise<AttemptResult> {
  const server = await mailServer(db, settings.sealKey);
  if (!server) return drop("dropped: no mail server is set (Admin → Notification channels)");
  const links = person
    ? unsubscribeLinks(unsubscribeToken(person.userId, person.scope, settings.sealKey), settings.publicOrigin)
    : null;
  const mail = renderMail(messages, {
    publicOrigin: settings.publicOrigin,
    unsubscribe: links && person ? { url: links.page, what: SCOPE_WORDS[person.scope] ?? person.scope } : null,
  });
  // List-Unsubscribe takes an absolute URL only: without PUBLIC_ORIGIN the mail has the link in its text alone.
  const oneClick = links && isOpenable(links.post) ? links.post : null;
  return sendMail(server, { to, ...mail, ...(oneClick && { listUnsubscribe: oneClick }) });
}
