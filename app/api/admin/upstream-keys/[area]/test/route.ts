import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { testKey } from "@/lib/api/upstream-keys";

export const POST = defineRoute(operations.testUpstreamKey, async ({ params, body }) =>
  ok(await testKey(params.area, body.key)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
