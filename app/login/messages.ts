// What the sign-in page says when signing in failed, from the error code the API answered: the same words
// whether the form was sent by JavaScript (login-form.tsx) or posted without it (the page reads ?error=).
export function waitText(seconds: number | undefined): string {
  if (!seconds) return "in a few minutes";
  if (seconds < 90) return `in ${seconds} seconds`;
  return `in ${Math.ceil(seconds / 60)} minutes`;
}

/** The sentence for an error code of POST /api/auth/login, or null for a code the page does not know. */
export function signInFailure(code: string | undefined, retryAfterSeconds?: number): string | null {
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
    case "csrf":
      return "This sign-in did not come from this portal's own page. Open the portal at its own address and sign in there.";
    case "internal":
    case "unsupported_media_type":
    case "payload_too_large":
      return "Signing in did not work. Try again; if it keeps failing, tell an administrator.";
    default:
      return null;
  }
}
