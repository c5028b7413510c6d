import { currentSessionOutput, currentTokenOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok, type HandlerContext } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { setUserTimeZone, type User } from "@/lib/auth/users";

// The wrapper has checked the session, and renewed it when due: expires_at is what the cookie now holds. With an
// API token: who it acts as, what it may do, and when it expires.
function me(
  {
    session,
    token,
    sessionSettings,
  }: Pick<HandlerContext<typeof operations.me>, "session" | "token" | "sessionSettings">,
  user: User,
) {
  return token || !session
    ? currentTokenOutput(user, token ?? { scopes: [], expiresAt: null })
    : currentSessionOutput(user, session, sessionSettings);
}

export const GET = defineRoute(operations.me, async (context) => ok(me(context, context.user)));

// His own time zone (the account page): every page reads it through lib/auth/time-zone.ts.
export const PATCH = defineRoute(operations.updateMe, async (context) => {
  const updated = await setUserTimeZone(context.server.db, context.user.id, context.body.time_zone);
  return ok(me(context, updated ?? context.user));
});

export const { POST, PUT, DELETE, OPTIONS } = methodsNotAllowed(["GET", "PATCH"]);
