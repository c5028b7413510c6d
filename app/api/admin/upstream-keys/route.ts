import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { areaStatus } from "@/lib/api/upstream-keys";

export const GET = defineRoute(operations.listUpstreamKeys, async ({ server }) =>
  ok([await areaStatus(server.db, "reports"), await areaStatus(server.db, "items")]),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
