import { operations } from "@/lib/api/operations";
import { defineRoute, noContent, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { endSignIn } from "@/lib/auth/oidc/flow";
import { clearSession } from "@/lib/auth/session";
import { revokeSessions } from "@/lib/auth/users";
import { getSignInSettings } from "@/lib/config/oidc";

// Signing out ends every session of the user (his session version moves on), not only this browser's: a copied
// cookie must not outlive the sign-out. Without a valid session there is nothing to end; the cookie is cleared.
// After a single sign-on, the answer also names the provider's logout page (RP-initiated logout), when it has one.
export const POST = defineRoute(
  operations.logout,
  async ({ user, session, server, sessionSettings, cookies, audit, request, requestId }) => {
    let endSessionUrl: string | null = null;
    if (user) {
      const settings = getSignInSettings().oidc;
      if (settings && session) {
        endSessionUrl = await endSignIn({
          settings,
          edge: server.config.edge,
          headers: request.headers,
          requestId,
          server,
          session,
          userId: user.id,
        });
      }
      await revokeSessions(server.db, user.id);
      await audit({ action: "auth.logout", target: { type: "user", id: user.id }, outcome: "success" });
    }
    clearSession(cookies, sessionSettings);
    return endSessionUrl ? ok({ end_session_url: endSessionUrl }) : noContent();
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
