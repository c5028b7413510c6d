import { operations } from "@/lib/api/operations";
import { created, defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

export const GET = defineRoute(operations.listReports, async ({ client, query }) => ({
  status: 200,
  json: await client.listReports(query),
}));

export const POST = defineRoute(operations.createReport, async ({ client, body }) => created(await client.createReport(body)));

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
