// The browser's side of passkeys (@simplewebauthn/browser): register one, or answer a challenge with one. Each asks
// the portal for the options, hands them to navigator.credentials, and turns what the browser throws into an
// ApiRequestError with a sentence, so that a form shows it as it shows the gateway's refusals: the person
// cancelled, the browser cannot use passkeys, the device holds one of his already…
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";

import type { PasskeyOutput } from "@/lib/contract/passkeys";

import { apiRequest, ApiRequestError } from "./api-client";

/** What an assertion is for (POST /api/auth/passkey/options). */
export type PasskeyPurpose = "sign_in" | "second_factor" | "step_up";

const UNSUPPORTED =
  "This browser cannot use passkeys. Use a current browser (Chrome, Edge, Firefox or Safari), or another way to sign in.";

/** The browser's failure as a sentence (code passkey_cancelled, passkey_unsupported or passkey_failed). */
function browserFailure(error: unknown, registering: boolean): ApiRequestError {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  const cause = (error as { cause?: { name?: unknown } } | null)?.cause?.name;
  const failed = (reason: string, message: string) => new ApiRequestError({ status: 0, code: reason, message });
  if (name === "NotAllowedError" || cause === "NotAllowedError" || code === "ERROR_CEREMONY_ABORTED")
    return failed(
      "passkey_cancelled",
      registering
        ? "No passkey was added: it was cancelled, or the browser waited too long. Try again when you are ready."
        : "No passkey was used: it was cancelled, none of yours was on this device, or the browser waited too long. Try again, or use another way.",
    );
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
    return failed("passkey_failed", "This device holds one of your passkeys already: it is in your list.");
  if (code === "ERROR_INVALID_DOMAIN" || code === "ERROR_INVALID_RP_ID" || name === "SecurityError")
    return failed(
      "passkey_unsupported",
      "Passkeys work only when the portal is opened at its name over https (or at localhost), not at an IP address. Ask an administrator for the portal's address.",
    );
  if (
    code === "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT" ||
    code === "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT" ||
    code === "ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG"
  )
    return failed(
      "passkey_unsupported",
      "This device cannot keep a passkey that checks it is you (a PIN, fingerprint or face). Use a phone, a computer with a screen lock, or a security key with a PIN.",
    );
  if (name === "NotSupportedError") return failed("passkey_unsupported", UNSUPPORTED);
  return failed("passkey_failed", "Your browser could not use a passkey just now. Try again, or use another way.");
}

function ensureSupported(): void {
  if (!browserSupportsWebAuthn())
    throw new ApiRequestError({ status: 0, code: "passkey_unsupported", message: UNSUPPORTED });
}

/** Registers a new passkey named `name` for the signed-in person: the options, the device, then the portal keeps it. */
export async function register(name: string): Promise<PasskeyOutput> {
  ensureSupported();
  const { data: optionsJSON } = await apiRequest<{ data: PublicKeyCredentialCreationOptionsJSON }>(
    "/api/auth/passkeys/options",
    { method: "POST" },
  );
  let response;
  try {
    response = await startRegistration({ optionsJSON });
  } catch (error) {
    throw browserFailure(error, true);
  }
  const { data } = await apiRequest<{ data: PasskeyOutput }>("/api/auth/passkeys", {
    method: "POST",
    body: { name, response },
  });
  return data;
}

/**
 * Answers a challenge of `purpose` with one of the person's passkeys (any of this site's for sign_in): the answer
 * to send as `response` (POST /api/auth/passkey, /api/auth/second-factor or /api/auth/step-up).
 */
export async function assertWithPasskey(purpose: PasskeyPurpose): Promise<AuthenticationResponseJSON> {
  ensureSupported();
  const { data: optionsJSON } = await apiRequest<{ data: PublicKeyCredentialRequestOptionsJSON }>(
    "/api/auth/passkey/options",
    { method: "POST", body: { purpose } },
  );
  try {
    return await startAuthentication({ optionsJSON });
  } catch (error) {
    throw browserFailure(error, false);
  }
}
