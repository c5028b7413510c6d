import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { listAlerts } from "@/lib/reports/alerts";

export const GET = defineRoute(operations.listAlerts, async ({ server, query }) => ({
  status: 200,
  json: await listAlerts(server.db, query),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
