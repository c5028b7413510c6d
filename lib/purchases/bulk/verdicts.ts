// What a bulk check's code comes to when the item service cannot give it a purchase (./lane.ts checks the codes).
import "server-only";

import { AREA_WORDS, capitalised } from "@/lib/contract/areas";
import { isCircuitOpenError, type UpstreamError } from "@/lib/upstream";
import { upstreamFailureWords } from "@/lib/upstream/failure";

import type { CodeOutcome } from "./results";

export const ITEM_SERVICE = capitalised(AREA_WORDS.items.service);
/** 429s one code may wait out before it fails (retryable: a re-check takes it). */
export const MAX_RATE_LIMIT_WAITS = 10;

export const NOT_CONFIGURED: CodeOutcome = {
  status: "failed",
  reason: `${capitalised(AREA_WORDS.items.api)} is not configured (${AREA_WORDS.items.variables.baseUrl}, ${AREA_WORDS.items.variables.key}).`,
};

export const SLOWED_DOWN_TOO_OFTEN: CodeOutcome = {
  status: "failed",
  reason: `${ITEM_SERVICE} kept asking Gatehouse to slow down (${MAX_RATE_LIMIT_WAITS} waits). Check the code again later.`,
  retryable: true,
};

/** The code's verdict when the item service's refusal settles it (the code, or Gatehouse's key); null otherwise. */
export function settledBy(error: UpstreamError): CodeOutcome | null {
  if (error.kind === "invalid" || error.kind === "not_found")
    return { status: "invalid", reason: error.upstreamMessage ?? `${ITEM_SERVICE} refused this code.` };
  if (error.kind === "auth")
    return {
      status: "failed",
      reason: `${ITEM_SERVICE} refused Gatehouse's key; an administrator must check ${AREA_WORDS.items.variables.key}.`,
    };
  return null;
}

/** Why a code failed after `attempts` tries that a later re-check may pass (network, timeout, 5xx, open breaker). */
export function failureReason(error: UpstreamError, attempts: number): string {
  const tries = `after ${attempts} tries`;
  if (isCircuitOpenError(error))
    return `${ITEM_SERVICE} is not answering (Gatehouse stopped calling it for a while), ${tries}. Check the code again later.`;
  const { what, said } = upstreamFailureWords(error);
  const quoted = error.kind === "http_status" && !error.status && said ? ` ("${said.slice(0, 200)}")` : "";
  return `${ITEM_SERVICE} ${what}${quoted}, ${tries}.`;
}
