"use client";
// Filled in by issue 36's recovery codes' part.
import type { FactorSummary } from "@/lib/contract/factors";

export function RecoveryCodesSection({ summary }: { summary: FactorSummary }) {
  void summary;
  return null;
}
