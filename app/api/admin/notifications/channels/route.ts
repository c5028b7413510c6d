import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { created, defineRoute, ok } from "@/lib/api/route";
import { notificationSettings } from "@/lib/notifications";
import { channelOutput, createChannel, listChannels } from "@/lib/notifications/channels";
import { smtpIsSet } from "@/lib/notifications/smtp";

export const GET = defineRoute(operations.listNotificationChannels, async ({ server }) => {
  const smtp = await smtpIsSet(server.db);
  return ok((await listChannels(server.db)).map((channel) => channelOutput(channel, smtp)));
});

// The webhook URL goes into the store sealed, and into no answer.
export const POST = defineRoute(operations.createNotificationChannel, async ({ server, body, user }) => {
  const channel = await createChannel(server.db, body, notificationSettings(server.config), user.email);
  return created(channelOutput(channel, await smtpIsSet(server.db)));
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
