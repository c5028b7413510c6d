import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { getPreferences, setPreferences } from "@/lib/notifications/subscriptions";

export const GET = defineRoute(operations.myNotificationPreferences, async ({ server, user }) =>
  ok(await getPreferences(server.db, user)),
);

export const PUT = defineRoute(operations.setMyNotificationPreferences, async ({ server, user, body }) =>
  ok(await setPreferences(server.db, user, body)),
);

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "PUT"]);
