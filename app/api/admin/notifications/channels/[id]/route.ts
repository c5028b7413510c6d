import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, noContent, ok } from "@/lib/api/route";
import { notificationSettings } from "@/lib/notifications";
import { channelOutput, deleteChannel, updateChannel } from "@/lib/notifications/channels";
import { smtpIsSet } from "@/lib/notifications/smtp";

export const PATCH = defineRoute(operations.updateNotificationChannel, async ({ server, params, body }) => {
  const channel = await updateChannel(server.db, params.id, body, notificationSettings(server.config));
  return ok(channelOutput(channel, await smtpIsSet(server.db)));
});

export const DELETE = defineRoute(operations.deleteNotificationChannel, async ({ server, params }) => {
  await deleteChannel(server.db, params.id);
  return noContent();
});

export const { GET, POST, PUT, OPTIONS } = methodsNotAllowed(["PATCH", "DELETE"]);
