import { operations } from "@/lib/api/operations";
import { created, defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { areaStatus, changeOutput, rotateKey } from "@/lib/api/upstream-keys";

// Tested against the upstream before it is saved; the old key stays, disabled, until it is removed.
export const POST = defineRoute(operations.setUpstreamKey, async ({ server, params, body, user }) => {
  const change = await rotateKey(server.db, params.area, body.key, user?.email ?? "unknown");
  return created({ change: changeOutput(change), status: await areaStatus(server.db, params.area) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
