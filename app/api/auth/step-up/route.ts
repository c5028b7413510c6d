import { fieldsRefused } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { noteRecoveryCodeUsed, refuseProof } from "@/lib/api/proof";
import { defineRoute, ok } from "@/lib/api/route";
import { verifyProof } from "@/lib/auth/factors/proof";
import { sessionAfterStepUp } from "@/lib/auth/factors/step-up";
import { portalOrigin } from "@/lib/auth/request";
import { writeSession } from "@/lib/auth/session";
import { STEP_UP_MINUTES } from "@/lib/contract/values";

// A fresh proof for the sensitive actions (lib/auth/factors/step-up.ts): checked by the one proof check, through
// the sign-in throttle, then the same session is sealed again with verifiedAt = now.
export const POST = defineRoute(
  operations.stepUp,
  async ({ body, server, user, session, sessionSettings, cookies, clientAddress, audit, request }) => {
    const who = { userId: user.id, userEmail: user.email, target: { type: "user" as const, id: user.id } };
    if (body.method === "password" && (user.identity !== null || session!.ssoSessionId !== undefined)) {
      throw fieldsRefused({
        password:
          "You sign in with single sign-on, so Gatehouse has no password of yours: confirm with a passkey or an authenticator code, or sign out and sign in again.",
      });
    }
    const origin = portalOrigin(request.headers, server.config.edge) ?? "";
    const result = await verifyProof(server.db, user, body, { purpose: "step_up", ip: clientAddress, origin });
    if (!result.ok) return refuseProof(result, audit, who, "auth.step_up_failed");

    const now = Date.now();
    await writeSession(cookies, sessionAfterStepUp(session!, now), sessionSettings);
    await audit({ ...who, action: "auth.step_up", outcome: "success", detail: { method: result.method } });
    if (result.method === "recovery") await noteRecoveryCodeUsed(server.db, user, audit, who);
    return ok({
      method: result.method,
      verified_at: new Date(now).toISOString(),
      fresh_until: new Date(now + STEP_UP_MINUTES * 60_000).toISOString(),
    });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
