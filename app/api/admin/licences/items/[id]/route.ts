import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { saveLicencePolicy } from "@/lib/licences/policies";

// Saved whole; the next activation of the item follows it, activations already made are kept.
export const PUT = defineRoute(operations.saveLicencePolicy, async ({ server, params, body, user }) =>
  ok(await saveLicencePolicy(server.db, params.id, body, user.email)),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["PUT"]);
