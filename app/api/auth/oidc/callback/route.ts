import { operations } from "@/lib/api/operations";
import { defineRoute, redirectAway, seeOther } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { finishSignIn, loginErrorPath } from "@/lib/auth/oidc/flow";
import { getSignInSettings } from "@/lib/config/oidc";

// Where the provider sends the browser back. A GET without X-CSRF: state and PKCE, bound to this browser's
// transaction cookie, protect it (lib/auth/oidc/flow.ts). Every outcome is a redirect: to the page asked for, or to
// the sign-in page with an error code.
export const GET = defineRoute(
  operations.ssoCallback,
  async ({ request, server, sessionSettings, cookies, requestId, session, audit }) => {
    const settings = getSignInSettings().oidc;
    if (!settings) return seeOther(loginErrorPath("sso_off", "/"));
    const destination = await finishSignIn(
      {
        settings,
        edge: server.config.edge,
        headers: request.headers,
        sessionSettings,
        cookies,
        requestId,
        server,
        audit,
        current: session,
      },
      request.nextUrl.searchParams,
    );
    return destination.external ? redirectAway(destination.location) : seeOther(destination.location);
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
