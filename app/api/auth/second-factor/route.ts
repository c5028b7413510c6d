import { currentSessionOutput } from "@/lib/api/accounts";
import { ApiError, rateLimited } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok, seeOther } from "@/lib/api/route";
import { announceFactorChange } from "@/lib/auth/factors/changes";
import { clearPendingSignIn, readPendingSignIn } from "@/lib/auth/factors/pending";
import { verifyProof } from "@/lib/auth/factors/proof";
import { factorSummary } from "@/lib/auth/factors/summary";
import { portalOrigin } from "@/lib/auth/request";
import { newSession, writeSession } from "@/lib/auth/session";
import { getUserById, recordSignIn } from "@/lib/auth/users";
import { SECOND_STEP_MINUTES } from "@/lib/contract/values";

const EXPIRED = `Your sign-in waited more than ${SECOND_STEP_MINUTES} minutes for its second step, or was not started in this browser: enter your email and password again.`;
const WRONG = {
  totp: "The code is wrong, or was used already: type the code your authenticator app shows now.",
  recovery: "That recovery code is wrong or was used already: each code works once.",
  passkey: "That passkey is not one of yours, or its answer is not for this sign-in: try again.",
  password: "The second step takes a passkey, an authenticator code or a recovery code.",
} as const;

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
    if (!result.ok) {
      await audit({
        userId: null,
        userEmail: user.email,
        action: "auth.second_factor_failed",
        target: { type: "user", id: user.id },
        outcome: result.reason === "wrong" ? "failure" : "denied",
        detail: result.reason === "wrong" ? { method: result.method, reason: "wrong" } : { reason: result.reason },
      });
      if (result.reason === "throttled")
        throw rateLimited(
          `Too many wrong codes for this account. Try again in ${result.retryAfterSeconds} s.`,
          result.retryAfterSeconds,
        );
      if (result.reason === "busy")
        throw new ApiError(
          "server_busy",
          `Gatehouse is checking too many sign-ins at once. Try again in ${result.retryAfterSeconds} s.`,
          { headers: { "Retry-After": String(result.retryAfterSeconds) } },
        );
      throw new ApiError("invalid_second_factor", WRONG[result.method], {
        ...(result.method === "passkey" ? {} : { fields: { code: WRONG[result.method] } }),
      });
    }

    clearPendingSignIn(cookies, sessionSettings);
    const session = newSession(user);
    await writeSession(cookies, session, sessionSettings);
    await recordSignIn(server.db, user.id);
    const signedIn = { userId: user.id, userEmail: user.email, target: { type: "user" as const, id: user.id } };
    await audit({ ...signedIn, action: "auth.login", outcome: "success", detail: { second_factor: result.method } });
    if (result.method === "recovery") {
      const { recovery_codes_left: codesLeft } = await factorSummary(server.db, user.id);
      await audit({
        ...signedIn,
        action: "auth.recovery_code_used",
        outcome: "success",
        detail: { codes_left: codesLeft },
      });
      await announceFactorChange(user, { type: "account.recovery_code_used", codesLeft });
    }
    return form ? seeOther(pending.next) : ok(currentSessionOutput(user, session, sessionSettings));
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
