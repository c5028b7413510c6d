// Making a credential that outlives the session (an API token) needs a recent sign-in: the session began at most
// RECENT_SIGN_IN_MINUTES ago, or the person gives his password again. Someone who finds a signed-in browser left
// open, or holds a stolen cookie, cannot mint a token that keeps working after the session ends. The password is
// checked like a sign-in (lib/auth/sign-in.ts): the same throttle, the same hashing cap, so this is no way around
// them. A single sign-on user has no password here: he signs in again with the provider, which starts a new session.
import "server-only";

import type { ServerContext } from "@/lib/auth/access";
import type { SessionData } from "@/lib/auth/session";
import { signIn } from "@/lib/auth/sign-in";
import type { User } from "@/lib/auth/users";
import { RECENT_SIGN_IN_MINUTES } from "@/lib/contract/values";

import { ApiError, rateLimited } from "./errors";

const RECENT_MS = RECENT_SIGN_IN_MINUTES * 60_000;

/** Returns when the session is recent or `password` is the user's; throws the ApiError to answer otherwise. */
export async function requireRecentSignIn(
  {
    server,
    user,
    session,
    password,
    clientAddress,
  }: {
    server: ServerContext;
    user: User;
    session: SessionData;
    password: string | undefined;
    clientAddress: string | null;
  },
  now = Date.now(),
): Promise<void> {
  if (now - session.issuedAt <= RECENT_MS) return;
  const since = `You signed in more than ${RECENT_SIGN_IN_MINUTES} minutes ago`;
  if (session.ssoSessionId !== undefined || user.identity !== null) {
    throw new ApiError(
      "reauthentication_required",
      `${since}: sign out and sign in again with single sign-on, then make the token within ${RECENT_SIGN_IN_MINUTES} minutes.`,
    );
  }
  if (password === undefined) {
    throw new ApiError("reauthentication_required", `${since}: enter your password to make a token.`, {
      fields: { password: "Enter your password to confirm it is you." },
    });
  }
  const result = await signIn(server.db, { email: user.email, password, ip: clientAddress });
  if (result.ok && result.user.id === user.id) return;
  if (!result.ok && result.reason === "busy") {
    throw new ApiError(
      "server_busy",
      `Gatehouse is checking too many passwords at once. Try again in ${result.retryAfterSeconds} s.`,
      {
        headers: { "Retry-After": String(result.retryAfterSeconds) },
      },
    );
  }
  if (!result.ok && result.reason === "throttled") {
    throw rateLimited(
      `Too many wrong passwords for this account. Try again in ${result.retryAfterSeconds} s.`,
      result.retryAfterSeconds,
    );
  }
  throw new ApiError("reauthentication_required", "The password is wrong: no token was made.", {
    fields: { password: "The password is wrong." },
  });
}
