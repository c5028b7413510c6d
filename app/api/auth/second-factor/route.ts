import { currentSessionOutput } from "@/lib/api/accounts";
import { ApiError } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { noteRecoveryCodeUsed, refuseProof } from "@/lib/api/proof";
import { defineRoute, ok, seeOther } from "@/lib/api/route";
import { clearPendingSignIn, readPendingSignIn } from "@/lib/auth/factors/pending";
import { verifyProof } from "@/lib/auth/factors/proof";
import { portalOrigin } from "@/lib/auth/request";
import { newSession, writeSession } from "@/lib/auth/session";
import { getUserById, recordSignIn } from "@/lib/auth/users";
import { SECOND_STEP_MINUTES } from "@/lib/contract/values";

const EXPIRED = `Your sign-in waited more than ${SECOND_STEP_MINUTES} minutes for its second step, or was not started in this browser: enter your email and password again.`;

// The second step of a sign-in (after POST /api/auth/login answered second_factor), also the second-step page's
// form posted without JavaScript (an authenticator or recovery code): then a 303 to the page asked for.
export const POST = defineRoute(
  operations.secondFactor,
  async ({ body, server, sessionSettings, cookies, clientAddress, audit, form, request }) => {
    const pending = readPendingSignIn(cookies, sessionSettings);
    const user = pending ? await getUserById(server.db, pending.userId) : null;
    // A password reset, a disable or a role change since the password ends the sign-in in flight too.
    if (!pending || !user || user.disabled || user.sessionVersion !== pending.sessionVersion) {
      if (pending) clearPendingSignIn(cookies, sessionSettings);
      throw new ApiError("second_step_expired", EXPIRED);
    }

    const origin = portalOrigin(request.headers, server.config.edge) ?? "";
    const result = await verifyProof(server.db, user, body, { purpose: "second_factor", ip: clientAddress, origin });
    const signedIn = { userId: user.id, userEmail: user.email, target: { type: "user" as const, id: user.id } };
    if (!result.ok) return refuseProof(result, audit, { ...signedIn, userId: null }, "auth.second_factor_failed");

    clearPendingSignIn(cookies, sessionSettings);
    const session = newSession(user);
    await writeSession(cookies, session, sessionSettings);
    await recordSignIn(server.db, user.id);
    await audit({ ...signedIn, action: "auth.login", outcome: "success", detail: { second_factor: result.method } });
    if (result.method === "recovery") await noteRecoveryCodeUsed(server.db, user, audit, signedIn);
    return form ? seeOther(pending.next) : ok(currentSessionOutput(user, session, sessionSettings));
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
