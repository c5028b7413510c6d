// What an upstream failure means, in the words a person reads: one sentence part per kind of failure, after the
// service's name ("… did not answer in time"). The gateway's error answers (lib/api/errors.ts), the pages'
// failure cards (lib/portal/failures.ts) and the bulk checks' reasons (lib/purchases/bulk/verdicts.ts) each put
// it in their own sentence (whose name, what to try), so the same failure is said the same way everywhere.
// Never the upstream's URL or raw answer; its own message only as `said`, for the caller to redact and quote.
import { isCircuitOpenError, type UpstreamError } from "./errors";

export interface UpstreamFailureWords {
  /** What happened, after the service's name: "did not answer in time". */
  what: string;
  /** Whether trying again may help (a timeout may; a rejected key will not until an operator acts). */
  retryable: boolean;
  /** The upstream's own message, when it gave one (unredacted upstream text). */
  said?: string;
}

export function upstreamFailureWords(error: UpstreamError): UpstreamFailureWords {
  const said = error.upstreamMessage ? { said: error.upstreamMessage } : {};
  // Its breaker is open: Gatehouse did not even ask.
  if (isCircuitOpenError(error))
    return { what: `is not answering; retrying in ${error.retryAfterSeconds} s`, retryable: true };
  switch (error.kind) {
    case "timeout":
      return { what: "did not answer in time", retryable: true };
    case "unreachable":
      return { what: "cannot be reached right now", retryable: true };
    case "rate_limited":
      return { what: "is limiting how often Gatehouse may ask", retryable: true, ...said };
    case "auth":
      return { what: "refused Gatehouse's key", retryable: false };
    case "bad_response":
    case "too_large":
      return { what: "sent an answer Gatehouse cannot read", retryable: true };
    case "http_status":
      return {
        what: `answered with an error${error.status ? ` (HTTP ${error.status})` : ""}`,
        retryable: true,
        ...said,
      };
    case "not_found":
      return { what: "does not know it", retryable: false, ...said };
    case "invalid":
      return { what: "refused the input", retryable: false, ...said };
  }
}
