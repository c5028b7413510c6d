// What the sign-in page says when signing in failed, from the error code the API answered: the same words
// whether the form was sent by JavaScript (login-form.tsx) or posted without it (the page reads ?error=), and for
// single sign-on the codes the OIDC routes send back (lib/auth/oidc/flow.ts) — one sentence each, never the
// provider's raw answer.
export function waitText(seconds: number | undefined): string {
  if (!seconds) return "in a few minutes";
  if (seconds < 90) return `in ${seconds} seconds`;
  return `in ${Math.ceil(seconds / 60)} minutes`;
}

/** The identity provider as the sentences name it (OIDC_LABEL) and the claim its roles come from. */
export interface ProviderWords {
  label: string;
  claim: string;
}

const SOMEONE = { label: "single sign-on", claim: "groups" };

/** The sentence for an error code of POST /api/auth/login or of single sign-on, or null for a code the page does not know. */
export function signInFailure(
  code: string | undefined,
  retryAfterSeconds?: number,
  provider: ProviderWords = SOMEONE,
): string | null {
  const name = provider.label;
  switch (code) {
    case "invalid_credentials":
      return "The email or the password is not right. Check both and try again.";
    case "rate_limited":
      return `Too many sign-in attempts. Try again ${waitText(retryAfterSeconds)}.`;
    case "server_busy":
      return `Gatehouse is checking too many sign-ins at once. Try again ${waitText(retryAfterSeconds)}.`;
    case "invalid_input":
    case "invalid_json":
      return "Enter your email address and your password.";
    case "invalid_second_factor":
      return "That code is wrong, or was used already. Type the code your authenticator app shows now, or use another way.";
    case "second_step_expired":
      return "Your sign-in waited too long for its second step. Enter your email and password again.";
    case "csrf":
      return "This sign-in did not come from this portal's own page. Open the portal at its own address and sign in there.";
    case "internal":
    case "unsupported_media_type":
    case "payload_too_large":
      return "Signing in did not work. Try again; if it keeps failing, tell an administrator.";
    case "password_login_off":
      return `Password sign-in is turned off on this portal: sign in with ${name} instead.`;
    case "sso_off":
      return "Single sign-on is not set up on this portal: sign in with your email and password.";
    case "sso_unavailable":
      return `${name} is not answering, so you cannot sign in with it right now. Try again in a few minutes; if it lasts, tell an administrator.`;
    case "sso_denied":
      return `You did not allow Gatehouse to use your ${name} account, so you are not signed in. To sign in, start again and allow it.`;
    case "sso_client_rejected":
      return `${name} refused Gatehouse's own credentials (its client id or secret), so nobody can sign in with it right now. Tell an administrator.`;
    case "sso_misconfigured":
      return `${name} refused the sign-in request as Gatehouse is set up (its scopes, redirect address or client). Tell an administrator.`;
    case "sso_code_rejected":
      return `${name} refused to finish this sign-in: its one-time code was already used or has expired. Start again.`;
    case "sso_state":
      return "This sign-in does not match one started in this browser (it took more than 10 minutes, or another one started since). Start again from this page.";
    case "sso_token_invalid":
      return `${name}'s answer could not be verified (it was meant for another application, or was changed on the way), so you are not signed in. Tell an administrator.`;
    case "sso_failed":
    case "sso_login_required":
      return `Signing in with ${name} did not work. Try again; if it keeps failing, tell an administrator.`;
    case "sso_email_taken":
      return `Gatehouse already has an account with your email address that signs in with a password, and ${name} does not take it over. Ask an administrator to sort it out.`;
    case "sso_email_missing":
      return `${name} did not tell Gatehouse your email address, which it needs to create your account. Tell an administrator (the email scope or claim is missing).`;
    case "sso_disabled":
      return "Your Gatehouse account is disabled. Ask an administrator if you need access.";
    case "sso_ended":
      return `${name} no longer confirms your sign-in, so your session has ended. Sign in again.`;
    case "sso_unconfirmed":
      return `Your sign-in could not be re-checked with ${name}, which is not answering, so your session has ended. Sign in again when it is back.`;
    case "sso_no_role":
      return `You signed in with ${name}, but none of your groups gives you a role in Gatehouse: it read the claim "${provider.claim}" and found no group it maps to a role. Ask an administrator for access.`;
    default:
      return null;
  }
}
