import { userOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { updateUser } from "@/lib/auth/users";
import { revokeTokensOnRecovery } from "@/lib/tokens/recovery";

// A role or password change, or disabling, ends the user's sessions at once (lib/auth/users.ts updateUser);
// the last active admin cannot be demoted or disabled (409 last_admin). A new password or disabling also revokes
// his API tokens unless revoke_tokens is false (lib/tokens/recovery.ts).
export const PATCH = defineRoute(operations.updateUser, async ({ server, user, params, body, audit }) => {
  const updated = await updateUser(server.db, params.id, body);
  await revokeTokensOnRecovery(server.db, updated, body, user, audit);
  return ok(userOutput(updated));
});

export const { GET, POST, PUT, DELETE, OPTIONS } = methodsNotAllowed(["PATCH"]);
