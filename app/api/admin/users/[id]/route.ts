import { userOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { updateUser } from "@/lib/auth/users";
import { revokesTokens } from "@/lib/contract/accounts";
import { revokeTokensOf } from "@/lib/tokens/store";

// A role or password change, or disabling, ends the user's sessions at once (lib/auth/users.ts updateUser);
// the last active admin cannot be demoted or disabled (409 last_admin). A new password or disabling also revokes
// his API tokens (unless revoke_tokens is false): a recovered account keeps nothing an intruder made, and enabling
// it again revives none of them. Each revoked token is its own audit row.
export const PATCH = defineRoute(operations.updateUser, async ({ accounts, user, params, body, audit }) => {
  const updated = await updateUser(accounts.db, params.id, body);
  if (revokesTokens(body)) {
    const reason = body.password !== undefined ? "password_reset" : "user_disabled";
    for (const token of await revokeTokensOf(accounts.db, updated.id, user)) {
      await audit({ action: "token.revoke", target: { type: "token", id: token.id, label: token.name }, outcome: "success", detail: { reason, owner: updated.email } });
    }
  }
  return ok(userOutput(updated));
});

export const { GET, POST, PUT, DELETE, OPTIONS } = methodsNotAllowed(["PATCH"]);
