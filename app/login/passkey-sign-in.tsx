"use client";
// "Sign in with a passkey" on the sign-in page: the browser offers this site's passkeys on the device (options of
// purpose sign_in, none named), and the answer signs in by itself at POST /api/auth/passkey. A success loads the
// page asked for. Needs JavaScript (WebAuthn does): without it the button does nothing and the password form stays.
import { apiRequest, type ApiRequestError } from "@/lib/portal/api-client";

import { signInFailure, type ProviderWords } from "./messages";
import { PasskeyButton } from "./passkey-button";

function failureText(error: ApiRequestError, provider: ProviderWords | undefined): string {
  if (error.code === "invalid_credentials")
    return "That passkey did not sign you in: it is not registered here, or it was removed. Sign in with your email and password.";
  if (error.status === 0) return error.message;
  return signInFailure(error.code, error.retryAfterSeconds, provider) ?? error.message;
}

export function PasskeySignIn({ next, provider }: { next: string; provider?: ProviderWords }) {
  return (
    <PasskeyButton
      purpose="sign_in"
      send={(response) => apiRequest("/api/auth/passkey", { method: "POST", body: { response } })}
      next={next}
      failureText={(error) => failureText(error, provider)}
      label="Sign in with a passkey"
      variant="secondary"
    />
  );
}
