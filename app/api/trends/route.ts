import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { DEFAULT_TREND_DAYS } from "@/lib/contract/values";
import { resultTrend } from "@/lib/reports/trends";

export const GET = defineRoute(operations.resultTrend, async ({ server, query }) =>
  ok(await resultTrend(server.db, { days: query.days ?? DEFAULT_TREND_DAYS, project: query.project })),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
