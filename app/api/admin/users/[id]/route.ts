import { userOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { updateUser } from "@/lib/auth/users";

// A role or password change, or disabling, ends the user's sessions at once (lib/auth/users.ts updateUser);
// the last active admin cannot be demoted or disabled (409 last_admin).
export const PATCH = defineRoute(operations.updateUser, async ({ accounts, params, body }) =>
  ok(userOutput(await updateUser(accounts.db, params.id, body))),
);

export const { GET, POST, PUT, DELETE, OPTIONS } = methodsNotAllowed(["PATCH"]);
