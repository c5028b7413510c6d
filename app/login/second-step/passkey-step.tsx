"use client";
// The second step with a passkey: the browser asks the device for one of the person's passkeys (options of purpose
// second_factor, lib/portal/passkey-browser.ts) and its answer goes to POST /api/auth/second-factor. A success
// loads the page asked for; a refusal or the browser's failure says what to do. Needs JavaScript (WebAuthn does).
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { assertWithPasskey } from "@/lib/portal/passkey-browser";

import { signInFailure } from "../messages";

/** The banner's words: the browser's own sentence, or the sign-in's for the gateway's code. */
function failureText(error: ApiRequestError): string {
  if (error.code === "invalid_second_factor")
    return "That passkey is not one of yours, or its answer was for another sign-in. Try again, or use another way.";
  if (error.status === 0) return error.message;
  return signInFailure(error.code, error.retryAfterSeconds) ?? error.message;
}

export function PasskeyStep({ next }: { next: string }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiRequestError | null>(null);

  const confirmWithPasskey = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const response = await assertWithPasskey("second_factor");
      await apiRequest("/api/auth/second-factor", { method: "POST", body: { method: "passkey", response } });
      window.location.assign(next);
    } catch (thrown) {
      if (!(thrown instanceof ApiRequestError)) throw thrown;
      setFailure(thrown);
      setBusy(false);
    }
  };

  return (
    <div>
      <FormErrorBanner
        title="Not signed in"
        message={failure ? failureText(failure) : undefined}
        requestId={failure?.requestId}
      />
      <Button
        variant="primary"
        fullWidth
        loading={busy}
        loadingText="Waiting for your passkey…"
        onClick={() => void confirmWithPasskey()}
      >
        Use a passkey
      </Button>
    </div>
  );
}
