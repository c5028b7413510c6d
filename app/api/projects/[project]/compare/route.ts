import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { compareDays } from "@/lib/reports/trends";

export const GET = defineRoute(operations.compareProject, async ({ server, params, query }) =>
  ok(await compareDays(server.db, params.project, query.from, query.to)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
