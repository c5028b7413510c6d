import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { passkeyRefusal, refuseWithoutLocalSignIn, relyingParty } from "@/lib/api/passkeys";
import { defineRoute, ok } from "@/lib/api/route";
import { registrationOptions } from "@/lib/auth/factors/passkeys";

export const POST = defineRoute(operations.passkeyRegistrationOptions, async ({ server, user, request }) => {
  refuseWithoutLocalSignIn(user);
  return ok(await registrationOptions(server.db, user, relyingParty(request, server)).catch(passkeyRefusal));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
