import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { tokenUsageFor } from "@/lib/tokens/usage-report";

// What each instance counted is written every few seconds (lib/tokens/usage.ts): a request shows within ~5 s.
export const GET = defineRoute(operations.tokenUsage, async ({ server, user }) =>
  ok(await tokenUsageFor(server.db, user)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
