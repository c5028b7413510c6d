import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { revokeToken, tokenOutput, updateTokenLimits } from "@/lib/tokens/store";

// Both take effect on the next request with the token: every request reads the token from the store.
export const PATCH = defineRoute(operations.updateTokenLimits, async ({ server, user, params, body }) => {
  const { token, owner } = await updateTokenLimits(server.db, user, params.id, body);
  return ok(tokenOutput(token, owner));
});

export const DELETE = defineRoute(operations.revokeToken, async ({ server, user, params }) => {
  const { token, owner } = await revokeToken(server.db, user, params.id);
  return ok(tokenOutput(token, owner));
});

export const { GET, POST, PUT, OPTIONS } = methodsNotAllowed(["PATCH", "DELETE"]);
