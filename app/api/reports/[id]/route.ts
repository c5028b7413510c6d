import { operations } from "@/lib/api/operations";
import { defineRoute, noContent, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

export const GET = defineRoute(operations.showReport, async ({ client, params }) => ok(await client.getReport(params.id)));

export const PATCH = defineRoute(operations.updateReport, async ({ client, params, body }) =>
  ok(await client.updateReport(params.id, body)),
);

export const DELETE = defineRoute(operations.deleteReport, async ({ client, params }) => {
  await client.deleteReport(params.id);
  return noContent();
});

export const { POST, PUT, OPTIONS } = methodsNotAllowed(["GET", "PATCH", "DELETE"]);
