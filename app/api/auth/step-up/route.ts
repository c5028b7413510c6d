import { ApiError, fieldsRefused, rateLimited } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { announceFactorChange } from "@/lib/auth/factors/changes";
import { verifyProof } from "@/lib/auth/factors/proof";
import { sessionAfterStepUp } from "@/lib/auth/factors/step-up";
import { factorSummary } from "@/lib/auth/factors/summary";
import { portalOrigin } from "@/lib/auth/request";
import { writeSession } from "@/lib/auth/session";
import { STEP_UP_MINUTES } from "@/lib/contract/values";

const WRONG = {
  totp: "The code is wrong, or was used already: type the code your authenticator app shows now.",
  recovery: "That recovery code is wrong or was used already: each code works once.",
  passkey: "That passkey is not one of yours, or its answer is not for this confirmation: try again.",
  password: "The password is wrong.",
} as const;

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
    if (!result.ok) {
      await audit({
        ...who,
        action: "auth.step_up_failed",
        outcome: result.reason === "wrong" ? "failure" : "denied",
        detail: result.reason === "wrong" ? { method: result.method, reason: "wrong" } : { reason: result.reason },
      });
      if (result.reason === "throttled")
        throw rateLimited(
          `Too many wrong attempts for this account. Try again in ${result.retryAfterSeconds} s.`,
          result.retryAfterSeconds,
        );
      if (result.reason === "busy")
        throw new ApiError(
          "server_busy",
          `Gatehouse is checking too many sign-ins at once. Try again in ${result.retryAfterSeconds} s.`,
          { headers: { "Retry-After": String(result.retryAfterSeconds) } },
        );
      const sentence = WRONG[result.method];
      if (result.method === "password")
        throw new ApiError("invalid_credentials", sentence, { fields: { password: sentence } });
      throw new ApiError("invalid_second_factor", sentence, {
        ...(result.method === "passkey" ? {} : { fields: { code: sentence } }),
      });
    }

    const now = Date.now();
    await writeSession(cookies, sessionAfterStepUp(session!, now), sessionSettings);
    await audit({ ...who, action: "auth.step_up", outcome: "success", detail: { method: result.method } });
    if (result.method === "recovery") {
      const { recovery_codes_left: codesLeft } = await factorSummary(server.db, user.id);
      await audit({ ...who, action: "auth.recovery_code_used", outcome: "success", detail: { codes_left: codesLeft } });
      await announceFactorChange(user, { type: "account.recovery_code_used", codesLeft });
    }
    return ok({
      method: result.method,
      verified_at: new Date(now).toISOString(),
      fresh_until: new Date(now + STEP_UP_MINUTES * 60_000).toISOString(),
    });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
