import { operations } from "@/lib/api/operations";
import { defineRoute, noContent, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { keepAnsweredSharePassword } from "@/lib/reports/share-password";

export const GET = defineRoute(operations.showReport, async ({ client, params }) =>
  ok(await client.getReport(params.id)),
);

export const PATCH = defineRoute(operations.updateReport, async ({ client, params, body, server, user }) => {
  const report = await client.updateReport(params.id, body);
  // Gatehouse keeps the page password it set (sealed) so that an editor can reveal it; the API never returns it.
  if (body.privacy !== undefined || body.password !== undefined) {
    await keepAnsweredSharePassword(server, report, body.password, user.email);
  }
  return ok(report);
});

export const DELETE = defineRoute(operations.deleteReport, async ({ client, params }) => {
  await client.deleteReport(params.id);
  return noContent();
});

export const { POST, PUT, OPTIONS } = methodsNotAllowed(["GET", "PATCH", "DELETE"]);
