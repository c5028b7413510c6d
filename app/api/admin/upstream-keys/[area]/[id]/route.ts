import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { areaStatus, changeOutput, removeKey } from "@/lib/api/upstream-keys";

export const DELETE = defineRoute(operations.removeUpstreamKey, async ({ server, params }) => {
  const change = await removeKey(server.db, params.area, params.id);
  return ok({ change: changeOutput(change), status: await areaStatus(server.db, params.area) });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = methodsNotAllowed(["DELETE"]);
