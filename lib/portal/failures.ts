// What a page shows when an upstream fails while the server renders it: what failed, in words a person
// understands, and what to try. Never the upstream's URL or raw answer. Anything that is not an UpstreamError
// is a bug and is rethrown, for app/error.tsx.
import { AREA_WORDS, capitalised } from "@/lib/contract/areas";
import { retryAfterSeconds } from "@/lib/contract/retry-after";
import { isCircuitOpenError, isUpstreamError, type UpstreamError } from "@/lib/upstream/errors";

export interface PageFailure {
  title: string;
  message: string;
  /** Whether trying again may help (a timeout may; a rejected key will not until an operator acts). */
  retryable: boolean;
}

/** `what` completes "… could not be loaded", e.g. "The reports". */
export function describeUpstreamFailure(error: UpstreamError, what: string): PageFailure {
  const service = capitalised(AREA_WORDS[error.area].service);
  const title = `${what} could not be loaded`;
  // The area's circuit breaker is open: say when Gatehouse will ask again instead of implying a fresh failure.
  if (isCircuitOpenError(error)) {
    return { title, message: `${service} is not answering; retrying in ${error.retryAfterSeconds} s.`, retryable: true };
  }
  switch (error.kind) {
    case "timeout":
      return { title, message: `${service} did not answer in time. Try again in a moment.`, retryable: true };
    case "unreachable":
      return { title, message: `${service} cannot be reached right now. Try again in a moment.`, retryable: true };
    case "rate_limited": {
      const seconds = retryAfterSeconds(error.retryAfter);
      const wait = seconds === null ? " in a minute" : ` in ${seconds} seconds`;
      return { title, message: `${service} is limiting how often Gatehouse may ask. Try again${wait}.`, retryable: true };
    }
    case "auth":
      return {
        title,
        message: `${service} refused Gatehouse's key, so nothing can be shown. An administrator should check ${AREA_WORDS[error.area].variables.key}.`,
        retryable: false,
      };
    case "bad_response":
    case "too_large":
      return {
        title,
        message: `${service} sent an answer Gatehouse cannot read. Try again in a moment; if it keeps happening, tell an administrator.`,
        retryable: true,
      };
    case "http_status":
      return {
        title,
        message: `${service} answered with an error${error.status ? ` (HTTP ${error.status})` : ""}. Try again in a moment.`,
        retryable: true,
      };
    case "not_found":
      return { title, message: `${service} does not know it. It may have been deleted.`, retryable: false };
    case "invalid":
      return { title, message: `${service} refused the request. Change the filters and try again.`, retryable: false };
  }
}

export type Loaded<T> = { ok: true; value: T } | { ok: false; failure: PageFailure; error: UpstreamError };

/**
 * Runs an upstream call for a server-rendered page: its value, or a failure to show in place of the content.
 * Other errors (bugs) propagate to the nearest error boundary.
 */
export async function loadFromUpstream<T>(what: string, load: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (error) {
    if (isUpstreamError(error)) return { ok: false, failure: describeUpstreamFailure(error, what), error };
    throw error;
  }
}
