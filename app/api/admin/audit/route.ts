import { auditLogPage } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";

export const GET = defineRoute(operations.listAudit, async ({ accounts, query }) => ({ status: 200, json: await auditLogPage(accounts.db, query) }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
