// The circuit breaker of one upstream area. After `failureThreshold` consecutive failed attempts it opens:
// calls fail at once (CircuitOpenError → 503 with Retry-After) instead of each waiting for a timeout and adding
// load to an upstream that is down. After `openMs` one trial request goes through; its outcome closes the
// breaker or opens it for another `openMs`. With several instances (lib/upstream/policy/shared.ts) a breaker
// that opens or closes says so through `listener`, and follows what another instance's breaker found
// (`openUntil`, `closeFromPeer`).
// Not cockatiel's circuitBreaker: it reads Date.now() itself (ours takes the Resilience's clock, which tests move
// by hand), and while its half-open trial runs it makes callers wait for it where ours refuses them at once.
import { emitEvent } from "@/lib/events";
import type { Area } from "@/lib/contract/areas";

import { CircuitOpenError } from "../errors";

export type BreakerState = "closed" | "open" | "half_open";

export interface BreakerSettings {
  /** Consecutive failed attempts that open the breaker. 0 turns the breaker off. */
  failureThreshold: number;
  /** How long it stays open before a trial request. */
  openMs: number;
}

export const DEFAULT_BREAKER: BreakerSettings = { failureThreshold: 5, openMs: 30_000 };

export interface BreakerStatus {
  state: BreakerState;
  /** Milliseconds until a trial request may go through; 0 unless open. */
  retryInMs: number;
  consecutiveFailures: number;
}

/** What an attempt turned out to be, as far as the upstream's health goes. */
export type AttemptOutcome = "success" | "failure";

/** Permission for one attempt; `settle` must be called exactly once with its outcome. */
export interface BreakerPermit {
  settle(outcome: AttemptOutcome): void;
}

const NO_OP_PERMIT: BreakerPermit = { settle() {} };

/** Told when this breaker opens (until when) or closes again after being open. */
export interface BreakerListener {
  opened(until: number): void;
  closed(): void;
}

export class CircuitBreaker {
  private state: BreakerState = "closed";
  private failures = 0;
  private openedAt = 0;
  private trialInFlight = false;

  constructor(
    readonly area: Area,
    private readonly settings: BreakerSettings = DEFAULT_BREAKER,
    private readonly now: () => number = Date.now,
    private readonly listener: BreakerListener | null = null,
  ) {}

  /** Another instance opened its breaker for this area: refuse calls until `until` as well, then try once. */
  openUntil(until: number): void {
    if (this.settings.failureThreshold <= 0 || until <= this.now()) return;
    if (this.state === "open" && this.openedAt + this.settings.openMs >= until) return;
    this.state = "open";
    this.openedAt = until - this.settings.openMs;
  }

  /** Another instance's trial succeeded: the upstream answers again. */
  closeFromPeer(): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.failures = 0;
  }

  /** Before each attempt: a permit, or CircuitOpenError when the breaker refuses the call. */
  acquire(operation: string): BreakerPermit {
    if (this.settings.failureThreshold <= 0) return NO_OP_PERMIT;
    if (this.state === "open") {
      if (this.retryInMs() > 0) throw this.refusal(operation);
      this.state = "half_open";
    }
    if (this.state === "half_open") {
      // One trial at a time: the others are refused until it has spoken.
      if (this.trialInFlight) throw this.refusal(operation);
      this.trialInFlight = true;
      return this.permit(true);
    }
    return this.permit(false);
  }

  status(): BreakerStatus {
    const open = this.state === "open" && this.retryInMs() > 0;
    const state: BreakerState = this.state === "open" && !open ? "half_open" : this.state;
    return { state, retryInMs: open ? this.retryInMs() : 0, consecutiveFailures: this.failures };
  }

  private permit(isTrial: boolean): BreakerPermit {
    let settled = false;
    return {
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        if (isTrial) this.trialInFlight = false;
        if (outcome === "success") this.recordSuccess();
        else this.recordFailure(isTrial);
      },
    };
  }

  private recordSuccess(): void {
    const wasClosed = this.state === "closed";
    this.failures = 0;
    this.state = "closed";
    if (!wasClosed) {
      this.listener?.closed();
      void emitEvent({ type: "upstream.recovered", data: { area: this.area } });
    }
  }

  private recordFailure(isTrial: boolean): void {
    this.failures += 1;
    // A failed trial reopens at once; an attempt that started before the breaker opened changes nothing more.
    if (isTrial || (this.state === "closed" && this.failures >= this.settings.failureThreshold)) {
      // A failed trial keeps it open; only the first opening is news.
      if (!isTrial)
        void emitEvent({
          type: "upstream.unavailable",
          data: { area: this.area, consecutive_failures: this.failures, retry_in_ms: this.settings.openMs },
        });
      this.state = "open";
      this.openedAt = this.now();
      this.listener?.opened(this.openedAt + this.settings.openMs);
    }
  }

  private retryInMs(): number {
    return Math.max(0, this.openedAt + this.settings.openMs - this.now());
  }

  private refusal(operation: string): CircuitOpenError {
    // While a trial is out, tell the caller to come back soon rather than "in 0 s".
    const seconds = Math.max(1, Math.ceil(this.retryInMs() / 1000));
    return new CircuitOpenError({ area: this.area, operation, retryAfterSeconds: seconds });
  }
}
