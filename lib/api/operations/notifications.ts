// Notifications (issue 35): admins' team channels and the mail server — each with its test message, the
// channels with their delivery logs — and a person's one-click unsubscribe from an e-mail (RFC 8058), which the
// signed token in its link proves without a session.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import {
  ChannelCreateBodySchema,
  ChannelIdParamsSchema,
  ChannelSchema,
  ChannelUpdateBodySchema,
  NotificationDeliverySchema,
  SmtpBodySchema,
  SmtpSchema,
  SmtpTestBodySchema,
  TestSendSchema,
  UnsubscribeQuerySchema,
  UnsubscribeSchema,
} from "@/lib/contract/notifications";

import { field, text } from "./targets";
import type { AuditTargetSpec, OperationSpec } from "./types";

/** A channel, by its name (never its webhook URL). */
function channelTarget(id: unknown, data?: unknown): AuditTargetSpec | null {
  const value = text(id);
  return value === null ? null : { type: "notification_channel", id: value, label: text(field(data, "name")) };
}

const admin = { tag: "Notifications", permission: "webhooks:manage" } as const;
const channelNotFound = "There is no notification channel with id {id}.";

export const notificationOperations = {
  listNotificationChannels: {
    ...admin,
    id: "listNotificationChannels",
    method: "GET",
    path: "/api/admin/notifications/channels",
    summary:
      "Every team channel, oldest first, with whether it can be sent to now (an e-mail channel needs the mail server); never a webhook URL",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The channels", schema: dataEnvelope(ChannelSchema.array()) },
  },
  createNotificationChannel: {
    ...admin,
    id: "createNotificationChannel",
    method: "POST",
    path: "/api/admin/notifications/channels",
    stepUp: true,
    summary:
      "Add a team channel: a Slack incoming webhook (https://hooks.slack.com/…), a Microsoft Teams webhook (Workflows or connector), or e-mail addresses; its time zone and weekly digest's day and hour. A webhook URL is checked like a webhook endpoint's (https, public addresses), sealed, and never answered again (target_hint)",
    query: EmptyQuerySchema,
    body: ChannelCreateBodySchema,
    success: { status: 201, description: "The channel", schema: dataEnvelope(ChannelSchema) },
    audit: {
      action: "notification.channel_create",
      target: ({ data }) => channelTarget(field(data, "id"), data),
      detail: ({ body }) => ({ kind: text(body.kind) }),
    },
  },
  updateNotificationChannel: {
    ...admin,
    id: "updateNotificationChannel",
    method: "PATCH",
    path: "/api/admin/notifications/channels/{id}",
    summary:
      "Change a channel's name, target, time zone or digest; disable it (enabled: false: nothing is sent, what waits is dropped) or enable it again",
    params: ChannelIdParamsSchema,
    query: EmptyQuerySchema,
    body: ChannelUpdateBodySchema,
    success: { status: 200, description: "The channel", schema: dataEnvelope(ChannelSchema) },
    notFound: channelNotFound,
    audit: {
      action: "notification.channel_update",
      target: ({ params, data }) => channelTarget(params.id, data),
      detail: ({ body }) => ({ changes: Object.keys(body) }),
    },
  },
  deleteNotificationChannel: {
    ...admin,
    id: "deleteNotificationChannel",
    method: "DELETE",
    path: "/api/admin/notifications/channels/{id}",
    summary: "Remove a channel, with its subscriptions, deliveries and their log",
    params: ChannelIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 204, description: "Removed" },
    notFound: channelNotFound,
    audit: { action: "notification.channel_delete", target: ({ params }) => channelTarget(params.id) },
  },
  testNotificationChannel: {
    ...admin,
    id: "testNotificationChannel",
    method: "POST",
    path: "/api/admin/notifications/channels/{id}/test",
    summary:
      "Send the channel a test message now, through the same delivery as every message: whether it was sent, and why not in a sentence (it is then retried like any); it appears in the channel's delivery log",
    params: ChannelIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "Whether it was sent", schema: dataEnvelope(TestSendSchema) },
    notFound: channelNotFound,
    audit: {
      action: "notification.channel_test",
      outcome: ({ data }) => (field(data, "sent") === true ? "success" : "failure"),
      target: ({ params }) => channelTarget(params.id),
      detail: ({ data }) => ({ error: text(field(data, "error")) }),
    },
  },
  listNotificationDeliveries: {
    ...admin,
    id: "listNotificationDeliveries",
    method: "GET",
    path: "/api/admin/notifications/channels/{id}/deliveries",
    summary:
      "The channel's delivery log: its latest 50 deliveries, newest first, each with its status, attempts, last error and every attempt",
    params: ChannelIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The deliveries", schema: dataEnvelope(NotificationDeliverySchema.array()) },
    notFound: channelNotFound,
  },
  getNotificationSmtp: {
    ...admin,
    id: "getNotificationSmtp",
    method: "GET",
    path: "/api/admin/notifications/smtp",
    summary:
      "The mail server (configured: false when none is set: no e-mail can be sent, to a channel or a person); never its password (password_set)",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The mail server", schema: dataEnvelope(SmtpSchema) },
  },
  setNotificationSmtp: {
    ...admin,
    id: "setNotificationSmtp",
    method: "PUT",
    path: "/api/admin/notifications/smtp",
    summary:
      "Set the mail server: host (public addresses only, like webhooks), port, security (starttls or tls), user, password (sealed, never answered; left out: kept) and From address",
    query: EmptyQuerySchema,
    body: SmtpBodySchema,
    success: { status: 200, description: "The mail server", schema: dataEnvelope(SmtpSchema) },
    audit: {
      action: "notification.smtp_set",
      detail: ({ body }) => ({
        host: text(body.host),
        port: typeof body.port === "number" ? body.port : null,
        security: text(body.security),
        password_changed: body.password !== undefined,
      }),
    },
  },
  removeNotificationSmtp: {
    ...admin,
    id: "removeNotificationSmtp",
    method: "DELETE",
    path: "/api/admin/notifications/smtp",
    summary: "Remove the mail server: no e-mail is sent until one is set",
    query: EmptyQuerySchema,
    success: { status: 204, description: "Removed" },
    audit: { action: "notification.smtp_remove" },
  },
  testNotificationSmtp: {
    ...admin,
    id: "testNotificationSmtp",
    method: "POST",
    path: "/api/admin/notifications/smtp/test",
    summary: "Send a test mail to `to` now, as every mail is sent: whether the mail server took it, and why not",
    query: EmptyQuerySchema,
    body: SmtpTestBodySchema,
    success: { status: 200, description: "Whether it was sent", schema: dataEnvelope(TestSendSchema) },
    audit: {
      action: "notification.smtp_test",
      outcome: ({ data }) => (field(data, "sent") === true ? "success" : "failure"),
      detail: ({ data }) => ({ error: text(field(data, "error")) }),
    },
  },
  unsubscribeNotifications: {
    id: "unsubscribeNotifications",
    method: "POST",
    path: "/api/notifications/unsubscribe",
    summary:
      "One-click unsubscribe (RFC 8058) from a Gatehouse e-mail: the token of its link (List-Unsubscribe) is the proof, no session. A topic's token removes the person's subscriptions to it; an all token switches his e-mail off. An altered or stale token is a 400. The body (List-Unsubscribe=One-Click) is not needed",
    tag: "Notifications",
    permission: "public",
    // The mail client posts a form body (List-Unsubscribe=One-Click) without X-CSRF: the signed token is the
    // credential, as a signed body is Help Scout's, so the body is read as bytes and left aside.
    rawBody: true,
    maxBodyBytes: 1024,
    query: UnsubscribeQuerySchema,
    success: { status: 200, description: "What was stopped", schema: dataEnvelope(UnsubscribeSchema) },
  },
} as const satisfies Record<string, OperationSpec>;
