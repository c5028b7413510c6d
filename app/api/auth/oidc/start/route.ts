import { operations } from "@/lib/api/operations";
import { defineRoute, redirectAway, seeOther } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { beginSignIn, loginErrorPath } from "@/lib/auth/oidc/flow";
import { getSignInSettings } from "@/lib/config/oidc";
import { safeNextPath } from "@/lib/auth/safe-next";

// The "Sign in with …" button: to the provider, or back to the sign-in page saying why not (lib/auth/oidc/flow.ts).
export const GET = defineRoute(
  operations.ssoStart,
  async ({ query, request, server, sessionSettings, cookies, requestId }) => {
    const next = safeNextPath(query.next);
    const settings = getSignInSettings().oidc;
    if (!settings) return seeOther(loginErrorPath("sso_off", next));
    const destination = await beginSignIn(
      { settings, edge: server.config.edge, headers: request.headers, sessionSettings, cookies, requestId },
      { next, prompt: query.prompt },
    );
    return destination.external ? redirectAway(destination.location) : seeOther(destination.location);
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
