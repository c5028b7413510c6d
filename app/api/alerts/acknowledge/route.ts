import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { acknowledgeAlerts } from "@/lib/reports/alerts";

export const POST = defineRoute(operations.acknowledgeAlerts, async ({ server, body, user }) => {
  const target = body.ids ? { ids: body.ids } : { all: true as const };
  const now = new Date();
  return ok({
    acknowledged: await acknowledgeAlerts(server.db, target, user.email, now),
    acknowledged_at: now.toISOString(),
  });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
