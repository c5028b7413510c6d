"use client";
// The second step with a passkey: filled in by the passkeys' part of issue 36 (a button that asks the browser for
// an assertion and sends it to POST /api/auth/second-factor with method "passkey").
export function PasskeyStep({ next }: { next: string }) {
  void next;
  return null;
}
