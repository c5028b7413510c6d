import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, noContent, ok } from "@/lib/api/route";
import { notificationSettings } from "@/lib/notifications";
import { removeSmtp, setSmtp, smtpOutput } from "@/lib/notifications/smtp";

export const GET = defineRoute(operations.getNotificationSmtp, async ({ server }) => ok(await smtpOutput(server.db)));

// The password goes into the store sealed, and into no answer ("password_set").
export const PUT = defineRoute(operations.setNotificationSmtp, async ({ server, body, user }) =>
  ok(await setSmtp(server.db, body, notificationSettings(server.config), user.email)),
);

export const DELETE = defineRoute(operations.removeNotificationSmtp, async ({ server }) => {
  await removeSmtp(server.db);
  return noContent();
});

export const { POST, PATCH, OPTIONS } = methodsNotAllowed(["GET", "PUT", "DELETE"]);
