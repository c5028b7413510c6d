"use client";
// The second step with a passkey: the browser asks the device for one of the person's passkeys (options of purpose
// second_factor, lib/portal/passkey-browser.ts) and its answer goes to POST /api/auth/second-factor. A success
// loads the page asked for; a refusal or the browser's failure says what to do. Needs JavaScript (WebAuthn does).
import { apiRequest, type ApiRequestError } from "@/lib/portal/api-client";

import { signInFailure } from "../messages";
import { PasskeyButton } from "../passkey-button";

/** The banner's words: the browser's own sentence, or the sign-in's for the gateway's code. */
function failureText(error: ApiRequestError): string {
  if (error.code === "invalid_second_factor")
    return "That passkey is not one of yours, or its answer was for another sign-in. Try again, or use another way.";
  if (error.status === 0) return error.message;
  return signInFailure(error.code, error.retryAfterSeconds) ?? error.message;
}

export function PasskeyStep({ next }: { next: string }) {
  return (
    <div>
      <PasskeyButton
        purpose="second_factor"
        send={(response) =>
          apiRequest("/api/auth/second-factor", { method: "POST", body: { method: "passkey", response } })
        }
        next={next}
        failureText={failureText}
        label="Use a passkey"
        variant="primary"
      />
    </div>
  );
}
