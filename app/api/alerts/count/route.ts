import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { unreadAlertCount } from "@/lib/reports/alerts";

export const GET = defineRoute(operations.alertCount, async ({ server }) =>
  ok({ unread: await unreadAlertCount(server.db) }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
