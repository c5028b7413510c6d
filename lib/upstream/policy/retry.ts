// Retries: which failures may be tried again, how long to wait, and the budget that keeps retries from
// multiplying the load on an upstream that is already struggling.
// Not cockatiel's retry: here a retry must be paid for by what is left of the one timeout and by the retry budget,
// and cockatiel's backoff cannot decline one; its jittered backoffs also start at 0 and double (ours: 25 ms, ×4).
import { isUpstreamError } from "../errors";

export interface RetrySettings {
  /** Retries after the first attempt (the issue: at most 2). 0 turns retrying off. */
  maxRetries: number;
  /** Backoff bounds: every wait lies between these. */
  minDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetrySettings = { maxRetries: 2, minDelayMs: 25, maxDelayMs: 250 };

/** Statuses that say "a proxy or the server is briefly unable", where a second try often succeeds. */
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/**
 * Only GET is retried: our GETs read and change nothing, so sending one twice is harmless. POST, PUT and DELETE
 * are never retried, even when they surely failed, because "surely" is never sure over a network.
 */
export function isRetryableMethod(method: string): boolean {
  return method === "GET";
}

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * A connection error before any answer (refused, reset, DNS) is retried. Once the upstream has begun to answer
 * (a status arrived, the body broke off) it is not: the request was received and may be in progress. Timeouts
 * are not retried either: the one timeout budget is spent.
 */
export function isRetryableError(error: unknown): boolean {
  return isUpstreamError(error) && error.kind === "unreachable" && error.status === undefined;
}

/**
 * Full jitter: a uniformly random wait up to a ceiling that grows with each retry (×4), never below the minimum
 * nor above the maximum. Randomness spreads the retries of many callers instead of bunching them. `retry` counts
 * from 1. With the defaults: retry 1 waits 25–100 ms, retry 2 waits 25–250 ms.
 */
export function backoffDelay(retry: number, settings: RetrySettings, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.minDelayMs * 4 ** retry);
  return Math.round(settings.minDelayMs + random() * (ceiling - settings.minDelayMs));
}

export interface RetryBudgetSettings {
  /** Retries allowed per request, on average (the issue: at most 20% of recent requests). */
  ratio: number;
  /** Retries that may be spent before any request has earned them, and the most the budget saves up. */
  reserve: number;
}

export const DEFAULT_RETRY_BUDGET: RetryBudgetSettings = { ratio: 0.2, reserve: 10 };

// Integer arithmetic: thousandths of a retry, so that five requests at 0.2 make exactly one retry.
const UNIT = 1000;

/**
 * A token bucket: each request earns `ratio` of a retry, each retry costs one, and the bucket holds at most
 * `reserve`. In a long outage every request fails and the bucket stays empty, so retries fall to `ratio` of
 * requests instead of tripling the traffic; a healthy upstream keeps the bucket full for its rare hiccups.
 */
export class RetryBudget {
  private tokens: number;
  private readonly earnPerRequest: number;
  private readonly capacity: number;

  constructor(settings: RetryBudgetSettings = DEFAULT_RETRY_BUDGET) {
    this.earnPerRequest = Math.round(settings.ratio * UNIT);
    this.capacity = Math.round(settings.reserve * UNIT);
    this.tokens = this.capacity;
  }

  /** Called once per request that could be retried (its first attempt). */
  recordRequest(): void {
    this.tokens = Math.min(Math.max(this.capacity, UNIT), this.tokens + this.earnPerRequest);
  }

  /** Takes the cost of one retry when the budget has it. */
  tryWithdraw(): boolean {
    if (this.tokens < UNIT) return false;
    this.tokens -= UNIT;
    return true;
  }

  /** Retries that could be spent right now (for tests and diagnostics). */
  available(): number {
    return Math.floor(this.tokens / UNIT);
  }
}
