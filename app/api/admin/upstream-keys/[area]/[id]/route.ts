import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { areaStatus, changeOutput, removeKey } from "@/lib/api/upstream-keys";

export const DELETE = defineRoute(operations.removeUpstreamKey, async ({ accounts, params }) => {
  const change = await removeKey(accounts.db, params.area, params.id);
  return ok({ change: changeOutput(change), status: await areaStatus(accounts.db, params.area) });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = methodsNotAllowed(["DELETE"]);
