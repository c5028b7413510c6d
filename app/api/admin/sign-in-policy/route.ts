import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { readSignInPolicy, writeSecondFactorPolicy } from "@/lib/auth/factors/policy";
import type { Db } from "@/lib/db";

async function policyOutput(db: Db) {
  const { policy, updatedAt, updatedBy } = await readSignInPolicy(db);
  return { second_factor_policy: policy, updated_at: updatedAt, updated_by: updatedBy };
}

export const GET = defineRoute(operations.getSignInPolicy, async ({ server }) => ok(await policyOutput(server.db)));

// Who must have a second factor: checked at each sign-in with a password (an admin without one is sent to enrol).
export const PUT = defineRoute(operations.saveSignInPolicy, async ({ server, body, user }) => {
  await writeSecondFactorPolicy(server.db, body.second_factor_policy, user.email);
  return ok(await policyOutput(server.db));
});

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "PUT"]);
