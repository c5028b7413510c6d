"use client";
// A passkey at sign-in, as a button (needs JavaScript: WebAuthn does): the browser asks the device for a passkey of
// `purpose` (lib/portal/passkey-browser.ts), `send` posts its answer, and a success loads the page asked for. A
// refusal, or the browser's own failure (status 0), shows in the banner above the button in the caller's words.
// Used by "Sign in with a passkey" (./passkey-sign-in.tsx) and the second step's (./second-step/passkey-step.tsx).
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { ApiRequestError } from "@/lib/portal/api-client";
import { assertWithPasskey, type PasskeyPurpose } from "@/lib/portal/passkey-browser";

export function PasskeyButton({
  purpose,
  send,
  next,
  failureText,
  label,
  variant,
}: {
  purpose: Extract<PasskeyPurpose, "sign_in" | "second_factor">;
  send: (response: Awaited<ReturnType<typeof assertWithPasskey>>) => Promise<unknown>;
  next: string;
  failureText: (error: ApiRequestError) => string;
  label: string;
  variant: "primary" | "secondary";
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiRequestError | null>(null);

  const start = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await send(await assertWithPasskey(purpose));
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
        message={failure ? failureText(failure) : undefined}
        requestId={failure?.requestId}
      />
      <Button
        variant={variant}
        fullWidth
        loading={busy}
        loadingText="Waiting for your passkey…"
        onClick={() => void start()}
      >
        {label}
      </Button>
    </>
  );
}
