import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { mustEnrolFirst } from "@/lib/auth/factors/steps";
import { factorSummary } from "@/lib/auth/factors/summary";

export const GET = defineRoute(operations.showFactors, async ({ server, user }) => {
  const [summary, required] = await Promise.all([factorSummary(server.db, user.id), mustEnrolFirst(server.db, user)]);
  return ok({ ...summary, password: user.identity === null, required });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
