import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { passkeyRefusal, refuseWithoutLocalSignIn, relyingParty } from "@/lib/api/passkeys";
import { created, defineRoute, ok } from "@/lib/api/route";
import { announceFactorChange } from "@/lib/auth/factors/changes";
import { listPasskeys, registerPasskey } from "@/lib/auth/factors/passkeys";
import { sessionAfterEnrolment } from "@/lib/auth/factors/steps";
import { writeSession } from "@/lib/auth/session";

export const GET = defineRoute(operations.listPasskeys, async ({ server, user }) =>
  ok(await listPasskeys(server.db, user.id)),
);

// Registration is an enrolment: the session is rewritten as just proven and no longer held to enrolment.
export const POST = defineRoute(
  operations.registerPasskey,
  async ({ server, user, body, request, session, cookies, sessionSettings }) => {
    refuseWithoutLocalSignIn(user);
    const passkey = await registerPasskey(server.db, user, body, relyingParty(request, server)).catch(passkeyRefusal);
    if (session) await writeSession(cookies, sessionAfterEnrolment(session), sessionSettings);
    await announceFactorChange(user, { type: "account.factor_enrolled", kind: "passkey" });
    return created(passkey);
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
