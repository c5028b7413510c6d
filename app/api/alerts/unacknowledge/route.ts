import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { unacknowledgeAlerts } from "@/lib/reports/alerts";

export const POST = defineRoute(operations.unacknowledgeAlerts, async ({ server, body, user }) =>
  ok({ unread: await unacknowledgeAlerts(server.db, body.acknowledged_at, user.email) }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
