// The browser's side of passkeys: ask the gateway for a challenge and let the browser's authenticator answer it
// (@simplewebauthn/browser). Placeholder written by the step-up part (issue 36) with only what its dialog needs;
// the passkeys part owns this file and replaces it with its own (registration too).
import { startAuthentication, type AuthenticationResponseJSON } from "@simplewebauthn/browser";

import { apiRequest } from "./api-client";

/** A passkey's answer for `purpose`, from options POST /api/auth/passkey/options made for it. */
export async function assertWithPasskey(
  purpose: "sign_in" | "second_factor" | "step_up",
): Promise<AuthenticationResponseJSON> {
  const { data } = await apiRequest<{ data: Parameters<typeof startAuthentication>[0]["optionsJSON"] }>(
    "/api/auth/passkey/options",
    { method: "POST", body: { purpose } },
  );
  return startAuthentication({ optionsJSON: data });
}
