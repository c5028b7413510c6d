"use client";
// Filled in by issue 36's authenticator (TOTP) part.
import type { FactorSummary } from "@/lib/contract/factors";

export function AuthenticatorSection({ summary }: { summary: FactorSummary }) {
  void summary;
  return null;
}
