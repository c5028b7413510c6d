import { auditLogPage } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

export const GET = defineRoute(operations.listAudit, async ({ server, query }) => ({
  status: 200,
  json: await auditLogPage(server.db, query),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
