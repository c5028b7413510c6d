import { ApiError, unauthenticated } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { passkeyRefusal, relyingParty } from "@/lib/api/passkeys";
import { defineRoute, ok } from "@/lib/api/route";
import { authenticationOptions } from "@/lib/auth/factors/passkeys";
import { readPendingSignIn } from "@/lib/auth/factors/pending";
import { SECOND_STEP_MINUTES } from "@/lib/contract/values";

// The options of an assertion, for whoever it is for: nobody yet (a sign-in with a passkey alone), the sign-in
// waiting for its second step (the pending cookie names him), or the signed-in person (a step-up).
export const POST = defineRoute(
  operations.passkeyOptions,
  async ({ server, body, request, cookies, sessionSettings, user }) => {
    const rp = relyingParty(request, server);
    let userId: string | null = null;
    if (body.purpose === "second_factor") {
      const pending = readPendingSignIn(cookies, sessionSettings);
      if (!pending)
        throw new ApiError(
          "second_step_expired",
          `Your sign-in waited more than ${SECOND_STEP_MINUTES} minutes for its second step, or was not started in this browser: enter your email and password again.`,
        );
      userId = pending.userId;
    } else if (body.purpose === "step_up") {
      if (!user) throw unauthenticated();
      userId = user.id;
    }
    const options = await authenticationOptions(server.db, body.purpose, userId, rp).catch(passkeyRefusal);
    if (options === null)
      throw new ApiError(
        "conflict",
        body.purpose === "step_up"
          ? "You have no passkey: confirm it is you with another way (an authenticator code or your password)."
          : "This account has no passkey: use another way for the second step.",
      );
    return ok(options);
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
