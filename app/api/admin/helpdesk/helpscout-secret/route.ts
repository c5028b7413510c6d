import { ApiError } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { created, defineRoute, noContent } from "@/lib/api/route";
import { portalOrigin } from "@/lib/auth/request";
import { helpScoutSecretStatus, makeHelpScoutSecret, removeHelpScoutSecret } from "@/lib/purchases/helpscout";

// The secret is in this answer only; the store keeps it sealed, to check Help Scout's signatures with.
export const POST = defineRoute(operations.makeHelpScoutSecret, async ({ server, user, request }) => {
  const { secret, state, rotated } = await makeHelpScoutSecret(server.db, server.config.dataKey, user.email);
  const origin = portalOrigin(request.headers, server.config.edge) ?? "";
  return created({ ...helpScoutSecretStatus(state, origin), rotated, secret });
});

export const DELETE = defineRoute(operations.removeHelpScoutSecret, async ({ server }) => {
  if (!(await removeHelpScoutSecret(server.db)))
    throw new ApiError("not_found", "Help Scout's secret is not set: there is nothing to remove.");
  return noContent();
});

export const { GET, PUT, PATCH, OPTIONS } = methodsNotAllowed(["POST", "DELETE"]);
