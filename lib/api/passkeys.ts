// What the passkey routes share (app/api/auth/passkeys/**, app/api/auth/passkey/**): the relying party of the
// request (the portal's origin and host name) and a PasskeyError in a sentence a person can act on.
import "server-only";

import type { ServerContext } from "@/lib/auth/access";
import { CHALLENGE_MINUTES, isPasskeyError, relyingPartyOf, type RelyingParty } from "@/lib/auth/factors/passkeys";
import { portalOrigin } from "@/lib/auth/request";
import type { User } from "@/lib/auth/users";
import { MAX_PASSKEYS_PER_USER } from "@/lib/contract/values";

import { ApiError } from "./errors";

/** The portal as the browser sees it; a request to a host the portal does not serve was refused before this. */
export function relyingParty(request: { headers: Headers }, server: ServerContext): RelyingParty {
  const rp = relyingPartyOf(portalOrigin(request.headers, server.config.edge));
  if (rp === null)
    throw new ApiError(
      "invalid_input",
      "Gatehouse cannot tell its own address from this request: open the portal at its own address (PUBLIC_ORIGIN) and try again.",
    );
  return rp;
}

/** Passkeys are for people who sign in to Gatehouse itself: not single sign-on accounts, not service accounts. */
export function refuseWithoutLocalSignIn(user: Pick<User, "identity" | "service">): void {
  if (user.identity !== null)
    throw new ApiError(
      "forbidden",
      "You sign in with single sign-on: your identity provider asks for your second factor, so Gatehouse keeps no passkey for you.",
    );
  if (user.service) throw new ApiError("forbidden", "A service account never signs in, so it has no passkeys.");
}

/** A PasskeyError as the answer; anything else is thrown as it is. */
export function passkeyRefusal(error: unknown): never {
  if (!isPasskeyError(error)) throw error;
  switch (error.reason) {
    case "too_many":
      throw new ApiError(
        "conflict",
        `You have ${MAX_PASSKEYS_PER_USER} passkeys, the most one person may have: remove one you no longer use first.`,
      );
    case "already_registered":
      throw new ApiError("conflict", "This passkey is registered already: it is in your list.");
    case "not_verified":
      throw new ApiError(
        "invalid_input",
        `Your browser's answer could not be verified (it took more than ${CHALLENGE_MINUTES} minutes, was for another page or address, or the device did not check it was you): add the passkey again.`,
        { fields: { response: "could not be verified: add the passkey again" } },
      );
    case "last_factor":
      throw new ApiError(
        "conflict",
        "This is your last second factor, and you must have one: add another passkey or an authenticator app before you remove it.",
      );
    case "busy":
      throw new ApiError(
        "server_busy",
        "Gatehouse is answering too many passkey sign-ins at once. Try again in a minute.",
        {
          headers: { "Retry-After": "60" },
        },
      );
  }
}
