// What a page shows when an upstream fails while the server renders it: what failed, in words a person
// understands, and what to try. Never the upstream's URL or raw answer. Anything that is not an UpstreamError
// is a bug and is rethrown, for app/error.tsx.
import { AREA_WORDS, capitalised } from "@/lib/contract/areas";
import { retryAfterSeconds } from "@/lib/contract/retry-after";
import { isCircuitOpenError, isUpstreamError, type UpstreamError } from "@/lib/upstream/errors";
import { upstreamFailureWords } from "@/lib/upstream/failure";

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
  const words = upstreamFailureWords(error);
  const happened = `${service} ${words.what}`;
  // The area's circuit breaker is open: say when Gatehouse will ask again instead of implying a fresh failure.
  if (isCircuitOpenError(error)) return { title, message: `${happened}.`, retryable: true };
  switch (error.kind) {
    case "rate_limited": {
      const seconds = retryAfterSeconds(error.retryAfter);
      return {
        title,
        message: `${happened}. Try again ${seconds === null ? "in a minute" : `in ${seconds} seconds`}.`,
        retryable: true,
      };
    }
    case "auth":
      return {
        title,
        message: `${happened}, so nothing can be shown. An administrator can replace the key on the Upstream connections page.`,
        retryable: false,
      };
    case "bad_response":
    case "too_large":
      return {
        title,
        message: `${happened}. Try again in a moment; if it keeps happening, tell an administrator.`,
        retryable: true,
      };
    case "not_found":
      return { title, message: `${happened}. It may have been deleted.`, retryable: false };
    case "invalid":
      return { title, message: `${service} refused the request. Change the filters and try again.`, retryable: false };
    default:
      return { title, message: `${happened}. Try again in a moment.`, retryable: words.retryable };
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
