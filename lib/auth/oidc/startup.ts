// Single sign-on at server start (instrumentation.ts, after the accounts): the client secret is registered for
// redaction, the settings are said in one log line, and the provider is asked for its discovery document in the
// background — a provider that is down does not stop the portal; the next sign-in asks again. With password
// sign-in off, the start says which break-glass admin may still use a password, and warns when that account
// could not.
import "server-only";

import { getSignInSettings } from "@/lib/config/oidc";
import { logEvent, registerSecrets } from "@/lib/log";

import { getServerContext } from "../access";
import { getUserByEmail } from "../users";

import { CALLBACK_PATH } from "./flow";
import { providerConfig, toSsoError } from "./provider";

const CREATE_ADMIN = (email: string) =>
  `npm run users -- create --email ${email} --name "Break-glass admin" --role admin`;

export async function startSingleSignOn(): Promise<void> {
  const settings = getSignInSettings();
  const { oidc } = settings;
  const { db, config } = await getServerContext();
  if (oidc) {
    if (oidc.clientSecret) registerSecrets([oidc.clientSecret]);
    const mapped = oidc.roleMap.map((entry) => `${entry.group}=${entry.role}`).join(", ");
    logEvent(
      "info",
      `Single sign-on with ${oidc.label}: issuer ${oidc.issuer}, client ${oidc.clientId} (${oidc.clientSecret ? "with a secret" : "public, PKCE only"}); roles from the claim "${oidc.roleClaim}" (${mapped || "no map"}), others ${oidc.defaultRole ? `get ${oidc.defaultRole}` : "are refused"}; sessions re-checked every ${oidc.recheckMs / 60_000} minutes; redirect URI ${config.edge.publicOrigin ?? "<the portal's origin>"}${CALLBACK_PATH}.`,
      { sso_issuer: oidc.issuer, sso_client_id: oidc.clientId },
    );
    void providerConfig(oidc).then(
      (config) =>
        logEvent(
          "info",
          `Single sign-on: ${oidc.label} answered its discovery (${config.serverMetadata().end_session_endpoint ? "with" : "without"} RP-initiated logout).`,
        ),
      (error: unknown) =>
        logEvent(
          "warn",
          `Single sign-on: ${oidc.label} (${oidc.issuer}) cannot be reached now; the portal runs, and the next sign-in with it tries again.`,
          {
            detail: toSsoError(error, "discovery").detail,
          },
        ),
    );
  }
  if (!settings.passwordLogin && settings.breakGlassEmail) {
    const email = settings.breakGlassEmail;
    logEvent(
      "info",
      `Password sign-in is off (PASSWORD_LOGIN=off): only the break-glass admin ${email} may sign in with a password; everyone else signs in with ${oidc?.label ?? "single sign-on"}.`,
    );
    const user = await getUserByEmail(db, email);
    const problem = !user
      ? `is not a user of this store; create it: ${CREATE_ADMIN(email)}`
      : user.identity
        ? "signs in with single sign-on and has no password; name a local admin account"
        : user.disabled
          ? "is disabled; enable it: npm run users -- enable " + email
          : user.role !== "admin"
            ? `has the role ${user.role}, not admin; npm run users -- set-role ${email} admin`
            : null;
    if (problem)
      logEvent(
        "warn",
        `The break-glass admin ${email} ${problem}. Until then nobody can sign in if ${oidc?.label ?? "the provider"} is down.`,
      );
  }
}
