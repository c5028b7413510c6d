import { currentSessionOutput, currentTokenOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok, type HandlerContext } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { setUserTimeZone, type User } from "@/lib/auth/users";
import { digestDueNow } from "@/lib/notifications/digest-due";

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
  // His digest's day and hour are read in his zone: the next tick works out when it is due.
  await digestDueNow(context.server.db, "user", context.user.id);
  return ok(me(context, updated ?? context.user));
});

export const { POST, PUT, DELETE, OPTIONS } = methodsNotAllowed(["GET", "PATCH"]);
