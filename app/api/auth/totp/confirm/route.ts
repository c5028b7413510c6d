import { ApiError } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { announceFactorChange } from "@/lib/auth/factors/changes";
import { generateRecoveryCodes } from "@/lib/auth/factors/recovery";
import { sessionAfterEnrolment } from "@/lib/auth/factors/steps";
import { factorSummary } from "@/lib/auth/factors/summary";
import { confirmTotpEnrolment, totpStatus } from "@/lib/auth/factors/totp";
import { writeSession } from "@/lib/auth/session";

const WRONG = "That code is not the one your authenticator app shows now: type the current 6 digits.";

// The code from the app makes it his factor. His first factor brings recovery codes (answered this once), and a
// session held to enrolment is free from now on.
export const POST = defineRoute(
  operations.confirmTotpEnrolment,
  async ({ server, user, body, session, cookies, sessionSettings }) => {
    const status = await totpStatus(server.db, user.id);
    if (status === "none")
      throw new ApiError("conflict", "Start adding an authenticator app first: no secret is waiting for its code.");
    if (status === "confirmed") throw new ApiError("conflict", "Your authenticator app is already confirmed.");
    const before = await factorSummary(server.db, user.id);
    const sealKey = server.config.dataKey;
    if (!(await confirmTotpEnrolment(server.db, user.id, body.code, { sealKey })))
      throw new ApiError("invalid_input", WRONG, { fields: { code: WRONG } });
    const recoveryCodes =
      before.recovery_codes_left === 0 ? await generateRecoveryCodes(server.db, user.id, { sealKey }) : null;
    if (session) await writeSession(cookies, sessionAfterEnrolment(session), sessionSettings);
    await announceFactorChange(user, { type: "account.factor_enrolled", kind: "totp" });
    return ok({ factors: await factorSummary(server.db, user.id), recovery_codes: recoveryCodes });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
