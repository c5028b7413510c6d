import { ApiError } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { announceFactorChange } from "@/lib/auth/factors/changes";
import { mustEnrolFirst } from "@/lib/auth/factors/steps";
import { factorSummary } from "@/lib/auth/factors/summary";
import { removeTotp, startTotpEnrolment, totpStatus } from "@/lib/auth/factors/totp";

// Start adding an authenticator app: a new secret, its URI and QR code. Nothing is a factor until confirmed.
export const POST = defineRoute(operations.startTotpEnrolment, async ({ server, user }) => {
  if (user.identity)
    throw new ApiError(
      "conflict",
      "You sign in with single sign-on: your identity provider asks for your second factor, not Gatehouse.",
    );
  const enrolment = await startTotpEnrolment(server.db, user, { sealKey: server.config.dataKey });
  if (!enrolment)
    throw new ApiError(
      "conflict",
      "You already have an authenticator app: remove it first to set up another (your recovery codes stay).",
    );
  return ok({ secret: enrolment.secret, uri: enrolment.uri, qr_svg: enrolment.qrSvg });
});

// Remove the app; never his last second factor while the policy requires one of him.
export const DELETE = defineRoute(operations.removeTotp, async ({ server, user }) => {
  const status = await totpStatus(server.db, user.id);
  if (status === "none") throw new ApiError("not_found", "You have no authenticator app to remove.");
  const { passkeys } = await factorSummary(server.db, user.id);
  if (status === "confirmed" && passkeys === 0 && (await mustEnrolFirst(server.db, user)))
    throw new ApiError(
      "conflict",
      "Your role must use a second factor and this app is your only one: add a passkey first, then remove the app.",
    );
  await removeTotp(server.db, user.id);
  if (status === "confirmed") await announceFactorChange(user, { type: "account.factor_removed", kind: "totp" });
  return ok({ factors: await factorSummary(server.db, user.id) });
});

export const { GET, PUT, PATCH, OPTIONS } = methodsNotAllowed(["POST", "DELETE"]);
