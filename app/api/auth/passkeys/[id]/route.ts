import { ApiError } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { passkeyRefusal } from "@/lib/api/passkeys";
import { defineRoute, ok } from "@/lib/api/route";
import { announceFactorChange } from "@/lib/auth/factors/changes";
import { removePasskey, renamePasskey } from "@/lib/auth/factors/passkeys";
import { mustEnrolFirst } from "@/lib/auth/factors/steps";
import { getSignInSettings } from "@/lib/config/oidc";

// Only his own: another person's passkey id is answered as one that does not exist.
const notHis = (id: string) => new ApiError("not_found", `You have no passkey with id ${id}.`);

export const PATCH = defineRoute(operations.renamePasskey, async ({ server, user, params, body }) => {
  const passkey = await renamePasskey(server.db, user.id, params.id, body.name);
  if (!passkey) throw notHis(params.id);
  return ok(passkey);
});

export const DELETE = defineRoute(operations.removePasskey, async ({ server, user, params }) => {
  // He must keep a second factor when the policy covers his role, and the break-glass admin always once enrolled.
  const required = user.email === getSignInSettings().breakGlassEmail || (await mustEnrolFirst(server.db, user));
  const passkey = await removePasskey(server.db, user.id, params.id, { required }).catch(passkeyRefusal);
  if (!passkey) throw notHis(params.id);
  await announceFactorChange(user, { type: "account.factor_removed", kind: "passkey" });
  return ok(passkey);
});

export const { GET, POST, PUT, OPTIONS } = methodsNotAllowed(["PATCH", "DELETE"]);
