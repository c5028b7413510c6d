import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { areaStatus, changeOutput, restoreKey } from "@/lib/api/upstream-keys";

// Undo a rotation: the stored key is tested again, then made the area's key.
export const POST = defineRoute(operations.restoreUpstreamKey, async ({ server, params, user }) => {
  const change = await restoreKey(server.db, params.area, params.id, user?.email ?? "unknown");
  return ok({ change: changeOutput(change), status: await areaStatus(server.db, params.area) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
