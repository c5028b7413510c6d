import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { getAlertRule, setAlertRule } from "@/lib/reports/alerts";

export const GET = defineRoute(operations.projectAlertRule, async ({ server, params }) =>
  ok(await getAlertRule(server.db, params.project)),
);

export const POST = defineRoute(operations.setProjectAlertRule, async ({ server, params, body, user }) =>
  ok(await setAlertRule(server.db, params.project, body.rule, user.email)),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
