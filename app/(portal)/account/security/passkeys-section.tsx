"use client";
// Filled in by issue 36's passkeys' part.
import type { FactorSummary } from "@/lib/contract/factors";

export function PasskeysSection({ summary }: { summary: FactorSummary }) {
  void summary;
  return null;
}
