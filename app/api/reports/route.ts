import { operations } from "@/lib/api/operations";
import { created, defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { keepAnsweredSharePassword } from "@/lib/reports/share-password";

export const GET = defineRoute(operations.listReports, async ({ client, query }) => ({
  status: 200,
  json: await client.listReports(query),
}));

export const POST = defineRoute(operations.createReport, async ({ client, body, server, user }) => {
  const report = await client.createReport(body);
  await keepAnsweredSharePassword(server, report, body.password, user.email);
  return created(report);
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
