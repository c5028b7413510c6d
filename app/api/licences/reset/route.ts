import { codeHashes, resetCodeActivations } from "@/lib/api/licence-staff";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";

// Every active activation of the code (of one item, or of all); each is told as its own licence.deactivated.
export const POST = defineRoute(operations.resetLicenceActivations, async ({ server, body, user, token }) => {
  const code = codeHashes(server, body.purchase_code);
  const reset = await resetCodeActivations(server, code, body.item_id ?? null, body.reason, {
    user: { id: user.id, email: user.email },
    via: token ? "api_token" : "session",
  });
  return ok({ reset });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
