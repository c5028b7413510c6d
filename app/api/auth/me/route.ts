import { currentSessionOutput, currentTokenOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

// The wrapper has checked the session, and renewed it when due: expires_at is what the cookie now holds. With an
// API token: who it acts as, what it may do, and when it expires.
export const GET = defineRoute(operations.me, async ({ user, session, token, sessionSettings }) =>
  ok(
    token || !session
      ? currentTokenOutput(user, token ?? { scopes: [], expiresAt: null })
      : currentSessionOutput(user, session, sessionSettings),
  ),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
