import { currentSessionOutput } from "@/lib/api/accounts";
import { ApiError, rateLimited } from "@/lib/api/errors";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok, seeOther } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { writePendingSignIn } from "@/lib/auth/factors/pending";
import { mustEnrolFirst, secondStepMethods } from "@/lib/auth/factors/steps";
import { newSession, writeSession } from "@/lib/auth/session";
import { signIn } from "@/lib/auth/sign-in";
import { recordSignIn } from "@/lib/auth/users";
import { getSignInSettings } from "@/lib/config/oidc";
import { SECOND_STEP_MINUTES } from "@/lib/contract/values";

// One answer for an unknown email, a wrong password and a disabled account, so the answer reveals nothing.
const INVALID_CREDENTIALS = "The email or the password is wrong.";

// Also the sign-in page's form posted without JavaScript (operations.login.form): the same checks, and a 303 to
// the page asked for (or back to /login with the error) instead of JSON.
export const POST = defineRoute(
  operations.login,
  async ({ body, server, sessionSettings, cookies, clientAddress, audit, form }) => {
    const result = await signIn(
      server.db,
      { email: body.email, password: body.password, ip: clientAddress },
      { secondStepFollows: async (user) => (await secondStepMethods(server.db, user)).length > 0 },
    );
    // Nothing was checked: no audit row, a 503 the person can wait out.
    if (!result.ok && result.reason === "busy") {
      throw new ApiError(
        "server_busy",
        `Gatehouse is checking too many sign-ins at once. Try again in ${result.retryAfterSeconds} s.`,
        {
          headers: { "Retry-After": String(result.retryAfterSeconds) },
        },
      );
    }
    if (!result.ok) {
      await audit({
        userId: null,
        userEmail: body.email,
        action: "auth.login_failed",
        target: result.userId ? { type: "user", id: result.userId } : null,
        outcome: result.reason === "throttled" ? "denied" : "failure",
        detail:
          result.reason === "throttled"
            ? { reason: "throttled", limited_by: result.limitedBy }
            : { reason: "invalid_credentials" },
      });
      if (result.reason === "throttled") {
        throw rateLimited(
          `Too many failed sign-ins ${result.limitedBy === "email" ? "for this email" : "from this address"}. Try again in ${result.retryAfterSeconds} s.`,
          result.retryAfterSeconds,
        );
      }
      throw new ApiError("invalid_credentials", INVALID_CREDENTIALS);
    }

    // PASSWORD_LOGIN=off: the right password still signs in only the break-glass admin (a wrong one, or an unknown
    // email, got the usual answer above, so this says nothing to someone who does not know the password).
    const { passwordLogin, breakGlassEmail, oidc } = getSignInSettings();
    if (!passwordLogin && result.user.email !== breakGlassEmail) {
      await audit({
        userId: null,
        userEmail: result.user.email,
        action: "auth.login_failed",
        target: { type: "user", id: result.user.id },
        outcome: "denied",
        detail: { reason: "password_login_off" },
      });
      throw new ApiError(
        "password_login_off",
        `Password sign-in is turned off on this portal: sign in with ${oidc?.label ?? "single sign-on"}.`,
      );
    }

    // Half a sign-in for a person with a second factor: a short-lived cookie names him until the second step
    // (POST /api/auth/second-factor), which makes the session and writes the audit row.
    const methods = await secondStepMethods(server.db, result.user);
    if (methods.length > 0) {
      const startedAt = Date.now();
      const next = form?.next ?? "/";
      writePendingSignIn(
        cookies,
        { userId: result.user.id, sessionVersion: result.user.sessionVersion, next, startedAt },
        sessionSettings,
      );
      if (form) return seeOther(`/login/second-step${next === "/" ? "" : `?${new URLSearchParams({ next })}`}`);
      const expiresAt = new Date(startedAt + SECOND_STEP_MINUTES * 60_000).toISOString();
      return ok({ second_factor: { methods, expires_at: expiresAt } });
    }

    // The policy covers his role and he has no second factor: the session may only enrol one (every page sends
    // him to Account → Security, the API answers 403 second_factor_required) until he does.
    const mustEnrol = await mustEnrolFirst(server.db, result.user);
    const session = { ...newSession(result.user), ...(mustEnrol ? { mustEnrol: true as const } : {}) };
    await writeSession(cookies, session, sessionSettings);
    await recordSignIn(server.db, result.user.id);
    await audit({
      userId: result.user.id,
      userEmail: result.user.email,
      action: "auth.login",
      target: { type: "user", id: result.user.id },
      outcome: "success",
      ...(mustEnrol ? { detail: { must_enrol: true } } : {}),
    });
    return form ? seeOther(form.next) : ok(currentSessionOutput(result.user, session, sessionSettings));
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
