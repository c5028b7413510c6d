// Notifications (issue 35): a person's own subscriptions and preferences, and a team channel's subscriptions
// (admins; the channels themselves are their own operations).
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import {
  NotificationChannelParamsSchema,
  NotificationPreferencesBodySchema,
  NotificationPreferencesSchema,
  NotificationSettingsBodySchema,
  NotificationSettingsSchema,
  NotificationSubscriptionsBodySchema,
  NotificationSubscriptionsSchema,
} from "@/lib/contract/notification-subscriptions";

import { field } from "./targets";
import type { OperationSpec } from "./types";

export const notificationSubscriptionOperations = {
  mySubscriptions: {
    id: "mySubscriptions",
    method: "GET",
    path: "/api/notifications/subscriptions",
    summary: "What you are told of where you work (by e-mail), and the topics your role allows",
    tag: "Notifications",
    permission: "signed_in",
    query: EmptyQuerySchema,
    success: { status: 200, description: "Your subscriptions", schema: dataEnvelope(NotificationSubscriptionsSchema) },
  },
  setMySubscriptions: {
    id: "setMySubscriptions",
    method: "PUT",
    path: "/api/notifications/subscriptions",
    summary: "Replace your subscriptions (report topics optionally per project and per alert rule)",
    tag: "Notifications",
    permission: "signed_in",
    query: EmptyQuerySchema,
    body: NotificationSubscriptionsBodySchema,
    success: { status: 200, description: "Your subscriptions", schema: dataEnvelope(NotificationSubscriptionsSchema) },
    errors: ["forbidden"],
  },
  myNotificationPreferences: {
    id: "myNotificationPreferences",
    method: "GET",
    path: "/api/notifications/preferences",
    summary: "Your e-mail switch, quiet hours and weekly digest, and the time zone they are read in",
    tag: "Notifications",
    permission: "signed_in",
    query: EmptyQuerySchema,
    success: { status: 200, description: "Your preferences", schema: dataEnvelope(NotificationPreferencesSchema) },
  },
  setMyNotificationPreferences: {
    id: "setMyNotificationPreferences",
    method: "PUT",
    path: "/api/notifications/preferences",
    summary: "Set your e-mail switch, quiet hours and weekly digest",
    tag: "Notifications",
    permission: "signed_in",
    query: EmptyQuerySchema,
    body: NotificationPreferencesBodySchema,
    success: { status: 200, description: "Your preferences", schema: dataEnvelope(NotificationPreferencesSchema) },
  },
  channelSubscriptions: {
    id: "channelSubscriptions",
    method: "GET",
    path: "/api/admin/notifications/channels/{id}/subscriptions",
    summary: "What a team channel is told of",
    tag: "Notifications",
    permission: "webhooks:manage",
    params: NotificationChannelParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "The channel's subscriptions",
      schema: dataEnvelope(NotificationSubscriptionsSchema),
    },
    errors: ["not_found"],
  },
  setChannelSubscriptions: {
    id: "setChannelSubscriptions",
    method: "PUT",
    path: "/api/admin/notifications/channels/{id}/subscriptions",
    summary: "Replace what a team channel is told of (any topic)",
    tag: "Notifications",
    permission: "webhooks:manage",
    params: NotificationChannelParamsSchema,
    query: EmptyQuerySchema,
    body: NotificationSubscriptionsBodySchema,
    success: {
      status: 200,
      description: "The channel's subscriptions",
      schema: dataEnvelope(NotificationSubscriptionsSchema),
    },
    errors: ["not_found"],
    audit: {
      action: "notification.channel_subscriptions_update",
      detail: ({ params, data }) => ({
        channel: String(params.id ?? ""),
        topics: ((field(data, "subscriptions") as Array<{ topic: string }> | undefined) ?? []).map((s) => s.topic),
      }),
    },
  },
  notificationSettings: {
    id: "notificationSettings",
    method: "GET",
    path: "/api/admin/notifications/settings",
    summary:
      "What the notifications wait for: results a change must last, minutes an upstream must be down, the merge window",
    tag: "Notifications",
    permission: "webhooks:manage",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The settings", schema: dataEnvelope(NotificationSettingsSchema) },
  },
  setNotificationSettings: {
    id: "setNotificationSettings",
    method: "PUT",
    path: "/api/admin/notifications/settings",
    summary: "Set what the notifications wait for",
    tag: "Notifications",
    permission: "webhooks:manage",
    query: EmptyQuerySchema,
    body: NotificationSettingsBodySchema,
    success: { status: 200, description: "The settings", schema: dataEnvelope(NotificationSettingsSchema) },
    audit: {
      action: "notification.settings_update",
      detail: ({ body }) => ({
        results_to_last: Number(body.results_to_last ?? 0),
        down_minutes: Number(body.down_minutes ?? 0),
        merge_window_minutes: Number(body.merge_window_minutes ?? 0),
      }),
    },
  },
} as const satisfies Record<string, OperationSpec>;
