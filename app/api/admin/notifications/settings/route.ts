import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { notificationSettingsView, setNotificationSettings } from "@/lib/notifications/settings";

export const GET = defineRoute(operations.notificationSettings, async ({ server }) =>
  ok(await notificationSettingsView(server.db)),
);

export const PUT = defineRoute(operations.setNotificationSettings, async ({ server, user, body }) =>
  ok(await setNotificationSettings(server.db, body, user.email)),
);

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "PUT"]);
