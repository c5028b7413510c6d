import { ApiError } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { generateRecoveryCodes } from "@/lib/auth/factors/recovery";
import { factorSummary } from "@/lib/auth/factors/summary";

// A new set of recovery codes, answered this once; the old ones stop working.
export const POST = defineRoute(operations.regenerateRecoveryCodes, async ({ server, user }) => {
  const { passkeys, totp } = await factorSummary(server.db, user.id);
  if (passkeys === 0 && !totp)
    throw new ApiError(
      "conflict",
      "Recovery codes stand in for a second factor: add an authenticator app or a passkey first.",
    );
  const codes = await generateRecoveryCodes(server.db, user.id, { sealKey: server.config.dataKey });
  return ok({ recovery_codes: codes, factors: await factorSummary(server.db, user.id) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
