"use client";
// "Sign in with a passkey" on the sign-in page: the browser offers this site's passkeys on the device (options of
// purpose sign_in, none named), and the answer signs in by itself at POST /api/auth/passkey. A success loads the
// page asked for. Needs JavaScript (WebAuthn does): without it the button does nothing and the password form stays.
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { assertWithPasskey } from "@/lib/portal/passkey-browser";

import { signInFailure, type ProviderWords } from "./messages";

function failureText(error: ApiRequestError, provider: ProviderWords | undefined): string {
  if (error.code === "invalid_credentials")
    return "That passkey did not sign you in: it is not registered here, or it was removed. Sign in with your email and password.";
  if (error.status === 0) return error.message;
  return signInFailure(error.code, error.retryAfterSeconds, provider) ?? error.message;
}

export function PasskeySignIn({ next, provider }: { next: string; provider?: ProviderWords }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiRequestError | null>(null);

  const signIn = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const response = await assertWithPasskey("sign_in");
      await apiRequest("/api/auth/passkey", { method: "POST", body: { response } });
      window.location.assign(next);
    } catch (thrown) {
      if (!(thrown instanceof ApiRequestError)) throw thrown;
      setFailure(thrown);
      setBusy(false);
    }
  };

  return (
    <>
      <FormErrorBanner
        title="Not signed in"
        message={failure ? failureText(failure, provider) : undefined}
        requestId={failure?.requestId}
      />
      <Button
        variant="secondary"
        fullWidth
        loading={busy}
        loadingText="Waiting for your passkey…"
        onClick={() => void signIn()}
      >
        Sign in with a passkey
      </Button>
    </>
  );
}
