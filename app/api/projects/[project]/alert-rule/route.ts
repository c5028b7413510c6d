import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { getAlertRule, setAlertRule } from "@/lib/reports/alerts";

export const GET = defineRoute(operations.projectAlertRule, async ({ accounts, params }) =>
  ok(await getAlertRule(accounts.db, params.project)),
);

export const POST = defineRoute(operations.setProjectAlertRule, async ({ accounts, params, body, user }) =>
  ok(await setAlertRule(accounts.db, params.project, body.rule, user.email)),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
