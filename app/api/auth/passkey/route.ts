import { currentSessionOutput } from "@/lib/api/accounts";
import { ApiError, rateLimited } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { relyingParty } from "@/lib/api/passkeys";
import { defineRoute, ok } from "@/lib/api/route";
import { signInWithPasskey } from "@/lib/auth/factors/passkeys";
import { newSession, writeSession } from "@/lib/auth/session";
import { recordSignIn } from "@/lib/auth/users";
import { getSignInSettings } from "@/lib/config/oidc";

// One answer for an unknown passkey, a wrong or replayed answer and a disabled account: it reveals nothing.
const NOT_SIGNED_IN =
  "That passkey did not sign you in: it is not registered here, or its answer was for another page or has been used. Try again, or sign in with your email and password.";

// Signing in with a passkey alone, as the password's route signs in (app/api/auth/login/route.ts): the throttle,
// PASSWORD_LOGIN=off (only the break-glass admin signs in to Gatehouse itself then), the audit row. No second step
// follows (the passkey, verified by the device, is a factor of two by itself) and no enrolment is asked for.
export const POST = defineRoute(
  operations.passkeySignIn,
  async ({ body, server, sessionSettings, cookies, clientAddress, audit, request }) => {
    const rp = relyingParty(request, server);
    const result = await signInWithPasskey(server.db, {
      response: body.response,
      origin: rp.origin,
      ip: clientAddress,
    });
    if (!result.ok) {
      await audit({
        userId: null,
        userEmail: null,
        action: "auth.login_failed",
        target: result.userId ? { type: "user", id: result.userId } : null,
        outcome: result.reason === "throttled" ? "denied" : "failure",
        detail: { passkey: true, reason: result.reason === "throttled" ? "throttled" : "invalid_passkey" },
      });
      if (result.reason === "throttled")
        throw rateLimited(
          `Too many failed sign-ins. Try again in ${result.retryAfterSeconds} s.`,
          result.retryAfterSeconds,
        );
      throw new ApiError("invalid_credentials", NOT_SIGNED_IN);
    }

    const { user } = result;
    const { passwordLogin, breakGlassEmail, oidc } = getSignInSettings();
    if (user.identity !== null || (!passwordLogin && user.email !== breakGlassEmail)) {
      await audit({
        userId: null,
        userEmail: user.email,
        action: "auth.login_failed",
        target: { type: "user", id: user.id },
        outcome: "denied",
        detail: { passkey: true, reason: "password_login_off" },
      });
      throw new ApiError(
        "password_login_off",
        `Signing in to Gatehouse itself is turned off on this portal: sign in with ${oidc?.label ?? "single sign-on"}.`,
      );
    }

    const session = newSession(user);
    await writeSession(cookies, session, sessionSettings);
    await recordSignIn(server.db, user.id);
    await audit({
      userId: user.id,
      userEmail: user.email,
      action: "auth.login",
      target: { type: "user", id: user.id },
      outcome: "success",
      detail: { passkey: true },
    });
    return ok(currentSessionOutput(user, session, sessionSettings));
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
