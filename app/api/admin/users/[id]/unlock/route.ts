import { userOutput } from "@/lib/api/accounts";
import { ApiError } from "@/lib/api/errors";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { clearLoginFailures } from "@/lib/auth/throttle";
import { getUserById } from "@/lib/auth/users";

// An admin lifts the sign-in throttling of an account: its failures from every address are forgotten.
export const POST = defineRoute(operations.unlockUser, async ({ server, params }) => {
  const user = await getUserById(server.db, params.id);
  if (!user) throw new ApiError("not_found", `There is no user with id ${params.id}.`);
  await clearLoginFailures(server.db, user.email);
  return ok(userOutput(user));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
