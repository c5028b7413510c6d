import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { reportHistory } from "@/lib/reports/history";

export const GET = defineRoute(operations.reportHistory, async ({ server, params }) =>
  ok(await reportHistory(server.db, params.id, server.config.reports.retentionDays)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
