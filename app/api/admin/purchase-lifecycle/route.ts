import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { lifecycleState, saveLifecycleSettings } from "@/lib/purchases/lifecycle-admin";
import { sweepBudgetOf } from "@/lib/purchases/sweep-service";

export const GET = defineRoute(operations.getPurchaseLifecycle, async ({ server }) =>
  ok(await lifecycleState(server.db, sweepBudgetOf(server.config.purchases))),
);

// Saved whole; the codes of items no longer covered are forgotten in the same transaction.
export const PUT = defineRoute(operations.savePurchaseLifecycle, async ({ server, body, user }) => {
  const forgotten = await saveLifecycleSettings(server.db, body, user.email);
  return ok({ ...(await lifecycleState(server.db, sweepBudgetOf(server.config.purchases))), forgotten });
});

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "PUT"]);
