import { resetOneActivation } from "@/lib/api/licence-staff";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";

export const POST = defineRoute(operations.resetLicenceActivation, async ({ server, params, body, user, token }) =>
  ok(
    await resetOneActivation(server, params.id, body.reason, {
      user: { id: user.id, email: user.email },
      via: token ? "api_token" : "session",
    }),
  ),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
