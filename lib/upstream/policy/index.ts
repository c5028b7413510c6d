// The policies around `sendUpstream`, composed per upstream area. The clients call `send` for every request
// and `read` around every read operation; `invalidate` after every change:
//
//   read:  cache (fresh → answer; expired → serve once, refresh behind) → single flight → load (parse) → send
//   send:  one timeout budget → [breaker permit → sendUpstream → retry?]*
//
// One Resilience holds the process's state (a cache shared by both areas, a breaker and a retry budget per
// area), process-wide because every route bundle must share it: a change made through one route must drop what
// another route cached. With REDIS_URL the cache, single flight,
// the breakers and the upstream's Retry-After are also shared with every other instance (./shared.ts):
//
//   read:  this process's cache → single flight here → Redis (answer, or wait for the instance asking) → load
import { setTimeout as sleep } from "node:timers/promises";

import "server-only";

import type { Area } from "@/lib/contract/areas";
import type { UpstreamPolicyConfig } from "@/lib/config/env";
import { currentCluster, type Cluster } from "@/lib/cluster";
import { retryAfterMs } from "@/lib/contract/retry-after";
import { recordUpstreamCall } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { processSlot, processWide } from "@/lib/process-wide";
import { inSpan, SpanKind, type SpanHandle } from "@/lib/telemetry";

import { isCircuitOpenError, isUpstreamError, UpstreamError } from "../errors";
import { sendUpstream, type UpstreamRequest, type UpstreamResponse } from "../http";

import {
  CircuitBreaker,
  DEFAULT_BREAKER,
  type AttemptOutcome,
  type BreakerSettings,
  type BreakerStatus,
} from "./breaker";
import { DEFAULT_CACHE_LIMITS, ResponseCache, type CacheSettings } from "./cache";
import {
  backoffDelay,
  DEFAULT_RETRY,
  DEFAULT_RETRY_BUDGET,
  isRetryableError,
  isRetryableMethod,
  isRetryableStatus,
  RetryBudget,
  type RetryBudgetSettings,
  type RetrySettings,
} from "./retry";
import { CHANNELS, SharedPolicyState } from "./shared";
import { SingleFlight } from "./single-flight";

export { keyFingerprint, requestKey } from "./cache";
export type { BreakerStatus } from "./breaker";

export interface ResilienceSettings {
  retry: RetrySettings;
  retryBudget: RetryBudgetSettings;
  breaker: BreakerSettings;
  cache: CacheSettings & {
    /** How long a read stays fresh, per area; 0 turns caching off for the area (single flight stays). */
    ttlMs: Record<Area, number>;
  };
}

export const DEFAULT_CACHE_TTL_MS: Record<Area, number> = { reports: 15_000, items: 60_000 };

export const DEFAULT_RESILIENCE: ResilienceSettings = {
  retry: DEFAULT_RETRY,
  retryBudget: DEFAULT_RETRY_BUDGET,
  breaker: DEFAULT_BREAKER,
  cache: { ...DEFAULT_CACHE_LIMITS, ttlMs: DEFAULT_CACHE_TTL_MS },
};

/** The settings from the environment (UPSTREAM_RETRIES, UPSTREAM_BREAKER_*, UPSTREAM_CACHE_*). */
export function resilienceSettingsFrom(config: UpstreamPolicyConfig): ResilienceSettings {
  return {
    retry: { ...DEFAULT_RETRY, maxRetries: config.retries },
    retryBudget: DEFAULT_RETRY_BUDGET,
    breaker: { failureThreshold: config.breakerFailures, openMs: config.breakerOpenMs },
    cache: { maxEntries: config.cacheMaxEntries, maxBytes: config.cacheMaxBytes, ttlMs: config.cacheTtlMs },
  };
}

/** A read operation, as the client describes it to the policies. */
export interface ReadSpec {
  /** The normalised request (`requestKey`): same key, same answer. */
  key: string;
  /** What changes drop this answer, e.g. ["reports:list"] or ["reports:item", "reports:item:42"]. */
  tags: readonly string[];
  /** Skip the cache (still coalesced, still stored): readiness checks must ask the upstream. */
  fresh?: boolean;
}

/** What a client sees of the policies of its area. */
export interface UpstreamPolicy {
  /** One request under the retry, breaker and timeout-budget rules. */
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  /** A read through the cache and single flight; `load` sends and parses. */
  read<T>(spec: ReadSpec, load: () => Promise<T>): Promise<T>;
  /** Drops cached answers and detaches reads in flight that carry one of the tags, on every instance. */
  invalidate(tags: readonly string[]): Promise<void>;
}

/** No policy at all: every call goes straight to the upstream (clients built without a Resilience, e.g. in tests). */
export const DIRECT: UpstreamPolicy = {
  send: sendUpstream,
  read: (_spec, load) => load(),
  invalidate: async () => {},
};

/** A breaker opened by another instance stays open here this much longer, so that its opener tries first. */
const PEER_GRACE_MS = 1_000;

/** A retry is not started unless this much of the timeout budget would be left for it. */
const MIN_ATTEMPT_MS = 100;

export class Resilience {
  readonly cache: ResponseCache;
  readonly flights = new SingleFlight();
  private readonly breakers: Record<Area, CircuitBreaker>;
  private readonly budgets: Record<Area, RetryBudget>;
  private readonly policies: Record<Area, UpstreamPolicy>;
  /** Until when each area asked (429 Retry-After) not to be called; shared with the other instances. */
  private readonly retryAfterUntil: Record<Area, number> = { reports: 0, items: 0 };
  private sharedState: { cluster: Cluster; state: SharedPolicyState } | null = null;

  constructor(
    readonly settings: ResilienceSettings = DEFAULT_RESILIENCE,
    private readonly clock: { now: () => number; random: () => number } = { now: Date.now, random: Math.random },
    private readonly cluster: () => Cluster = currentCluster,
  ) {
    this.cache = new ResponseCache(settings.cache, clock.now);
    const listener = (area: Area) => ({
      opened: (until: number) => this.shared()?.hold(area, "breaker", until),
      closed: () => this.shared()?.release(area),
    });
    this.breakers = {
      reports: new CircuitBreaker("reports", settings.breaker, clock.now, listener("reports")),
      items: new CircuitBreaker("items", settings.breaker, clock.now, listener("items")),
    };
    this.budgets = { reports: new RetryBudget(settings.retryBudget), items: new RetryBudget(settings.retryBudget) };
    this.policies = { reports: this.policyFor("reports"), items: this.policyFor("items") };
  }

  /** The policies of one area, for its client. */
  for(area: Area): UpstreamPolicy {
    return this.policies[area];
  }

  breakerStatus(area: Area): BreakerStatus {
    return this.breakers[area].status();
  }

  retryBudget(area: Area): RetryBudget {
    return this.budgets[area];
  }

  /**
   * The state shared with the other instances, or null without Redis. Made on first use (the cluster starts after
   * this module may be loaded), and then the bus is listened to: changes, breakers and Retry-After of the others.
   */
  private shared(): SharedPolicyState | null {
    const cluster = this.cluster();
    if (!cluster.redis) return null;
    if (this.sharedState?.cluster === cluster) return this.sharedState.state;
    const state = new SharedPolicyState(cluster);
    this.sharedState = { cluster, state };
    cluster.subscribe(CHANNELS.invalidate, (message) => {
      const tags = Array.isArray(message.tags)
        ? message.tags.filter((tag): tag is string => typeof tag === "string")
        : [];
      this.flights.detach(tags);
      this.cache.invalidate(tags);
    });
    const areaOf = (message: Record<string, unknown>): Area | null =>
      message.area === "reports" || message.area === "items" ? message.area : null;
    cluster.subscribe(CHANNELS.breaker, (message) => {
      const area = areaOf(message);
      if (!area) return;
      const until = Number(message.until);
      if (until > 0) this.breakers[area].openUntil(until + PEER_GRACE_MS);
      else this.breakers[area].closeFromPeer();
    });
    cluster.subscribe(CHANNELS.retryAfter, (message) => {
      const area = areaOf(message);
      if (area) this.retryAfterUntil[area] = Math.max(this.retryAfterUntil[area], Number(message.until) || 0);
    });
    // What the others found before this instance listened.
    for (const area of ["reports", "items"] as const) {
      void state.holds(area).then(({ breaker, retryAfter }) => {
        if (breaker > 0) this.breakers[area].openUntil(breaker + PEER_GRACE_MS);
        this.retryAfterUntil[area] = Math.max(this.retryAfterUntil[area], retryAfter);
      });
    }
    return state;
  }

  private policyFor(area: Area): UpstreamPolicy {
    return {
      send: (request) => this.send(area, request),
      read: (spec, load) => this.read(area, spec, load),
      invalidate: (tags) => this.invalidate(tags),
    };
  }

  /** Another instance was told by the upstream to wait (429 Retry-After): answer the same without calling. */
  private heldBack(area: Area, operation: string): UpstreamError | null {
    const waitMs = this.retryAfterUntil[area] - this.clock.now();
    if (waitMs <= 0) return null;
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    recordUpstreamCall({ area, operation, status: null, duration_ms: 0, outcome: "held_back" });
    return new UpstreamError({
      kind: "rate_limited",
      area,
      operation,
      status: 429,
      detail: "is rate limiting Gatehouse (said to another instance)",
      retryAfter,
    });
  }

  /** A 429 with Retry-After, with several instances: none of them calls the area again before it is over. */
  private noteRetryAfter(area: Area, response: UpstreamResponse): void {
    const shared = this.shared();
    if (!shared || response.status !== 429) return;
    const waitMs = retryAfterMs(response.headers.get("retry-after"));
    if (waitMs === null || waitMs <= 0) return;
    const until = this.clock.now() + Math.min(waitMs, 3_600_000);
    this.retryAfterUntil[area] = Math.max(this.retryAfterUntil[area], until);
    shared.hold(area, "retry_after", until);
  }

  /**
   * One upstream call in its span (lib/telemetry): the area, the operation, the breaker's state when it began,
   * the retries it took and the final HTTP status. The span is the parent of the traceparent the upstream gets.
   */
  private send(area: Area, request: UpstreamRequest): Promise<UpstreamResponse> {
    const attributes = {
      "gatehouse.upstream.area": area,
      "gatehouse.upstream.operation": request.operation,
      "gatehouse.upstream.breaker": this.breakers[area].status().state,
      "http.request.method": request.method,
      "server.address": request.url.hostname,
    };
    return inSpan("upstream.call", attributes, (span) => this.sendRetrying(area, request, span), {
      kind: SpanKind.CLIENT,
    });
  }

  private async sendRetrying(area: Area, request: UpstreamRequest, span: SpanHandle): Promise<UpstreamResponse> {
    const budgetMs = request.timeoutMs;
    const deadline = performance.now() + budgetMs;
    const remaining = () => deadline - performance.now();
    const retryable = isRetryableMethod(request.method);
    const breaker = this.breakers[area];
    const budget = this.budgets[area];
    const held = this.heldBack(area, request.operation);
    if (held) throw held;
    if (retryable) budget.recordRequest();

    // A retry must fit in what is left of the one timeout budget, and the retry budget must have one to spend.
    const retryAllowed = async (retry: number): Promise<boolean> => {
      if (!retryable || retry > this.settings.retry.maxRetries) return false;
      const delay = backoffDelay(retry, this.settings.retry, this.clock.random);
      if (remaining() - delay < MIN_ATTEMPT_MS || !budget.tryWithdraw()) return false;
      await sleep(delay);
      return true;
    };

    for (let retry = 1; ; retry++) {
      let permit;
      try {
        permit = breaker.acquire(request.operation);
      } catch (error) {
        if (isCircuitOpenError(error)) {
          recordUpstreamCall({
            area,
            operation: request.operation,
            status: null,
            duration_ms: 0,
            outcome: "circuit_open",
          });
        }
        throw error;
      }
      let response: UpstreamResponse;
      span.set({ "gatehouse.upstream.retries": retry - 1 });
      try {
        response = await sendUpstream({ ...request, timeoutMs: Math.max(1, Math.round(remaining())) });
        span.set({ "http.response.status_code": response.status });
      } catch (error) {
        span.set({ "gatehouse.upstream.outcome": isUpstreamError(error) ? error.kind : "error" });
        permit.settle(outcomeOfError(error));
        if (isRetryableError(error) && (await retryAllowed(retry))) continue;
        throw timeoutOfWholeBudget(error, budgetMs);
      }
      permit.settle(response.status >= 500 ? "failure" : "success");
      this.noteRetryAfter(area, response);
      if (isRetryableStatus(response.status) && (await retryAllowed(retry))) continue;
      return response;
    }
  }

  /** A read in its span: whether the cache answered (hit, stale) or the upstream was called (miss, bypass). */
  private read<T>(area: Area, spec: ReadSpec, load: () => Promise<T>): Promise<T> {
    return inSpan("upstream.read", { "gatehouse.upstream.area": area }, (span) =>
      this.readCached(area, spec, load, span),
    );
  }

  private async readCached<T>(area: Area, spec: ReadSpec, load: () => Promise<T>, span: SpanHandle): Promise<T> {
    const ttlMs = this.settings.cache.ttlMs[area];
    span.set({ "gatehouse.upstream.cache": ttlMs > 0 && !spec.fresh ? "miss" : "bypass" });
    if (ttlMs > 0 && !spec.fresh) {
      const cached = this.cache.lookup(spec.key);
      if (cached.kind === "fresh") {
        metrics().cache.inc({ area, result: "hit" });
        span.set({ "gatehouse.upstream.cache": "hit" });
        return cached.value as T;
      }
      if (cached.kind === "stale") {
        metrics().cache.inc({ area, result: "hit" });
        span.set({ "gatehouse.upstream.cache": "stale" });
        // Serve the expired answer this once; the refresh joins (or is) the single flight for the key.
        this.loadAndStore(area, spec, ttlMs, load).catch(() => {
          // The failure is in the log (sendUpstream records it); the next reader waits for the upstream.
        });
        return cached.value as T;
      }
    }
    return this.loadAndStore(area, spec, ttlMs, load);
  }

  private loadAndStore<T>(area: Area, spec: ReadSpec, ttlMs: number, load: () => Promise<T>): Promise<T> {
    return this.flights.run<T>(spec.key, spec.tags, async (flight) => {
      const shared = ttlMs > 0 && !spec.fresh ? this.shared() : null;
      let value: T;
      if (shared) {
        // Stored in Redis under the generations read before the call: a change meanwhile makes it a miss everywhere.
        const loaded = await shared.load(spec.key, spec.tags, load, {
          ttlMs,
          keep: () => !flight.detached,
          prepare: deepFreeze,
        });
        value = loaded.value;
        metrics().cache.inc({ area, result: loaded.from === "shared" ? "shared" : "miss" });
      } else {
        value = deepFreeze(await load());
        if (ttlMs > 0 && !spec.fresh) metrics().cache.inc({ area, result: "miss" });
      }
      // A change during the call detached it: its answer may predate the change, so nobody else gets it.
      if (ttlMs > 0 && !flight.detached) {
        this.cache.store(spec.key, value, { ttlMs, staleMs: ttlMs, tags: spec.tags, bytes: approximateBytes(value) });
      }
      return value;
    });
  }

  private async invalidate(tags: readonly string[]): Promise<void> {
    this.flights.detach(tags);
    this.cache.invalidate(tags);
    await this.shared()?.invalidate(tags);
  }
}

/** Failures that say the upstream is unwell: no answer in time, or no connection. Any answer is a success. */
function outcomeOfError(error: unknown): AttemptOutcome {
  return isUpstreamError(error) && (error.kind === "timeout" || error.kind === "unreachable") ? "failure" : "success";
}

/** A timeout of the last attempt is a timeout of the whole call: name the budget the caller chose. */
function timeoutOfWholeBudget(error: unknown, budgetMs: number): unknown {
  if (!isUpstreamError(error) || error.kind !== "timeout") return error;
  return new UpstreamError({
    kind: "timeout",
    area: error.area,
    operation: error.operation,
    status: error.status,
    detail: `no complete answer within ${budgetMs} ms`,
  });
}

/** Cached answers are shared by every caller: freezing them turns an accidental mutation into an error. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function approximateBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "");
}

const RESILIENCE = "upstream.resilience";

/** The process's Resilience, created with `settings` on first use. */
export function processResilience(settings: ResilienceSettings): Resilience {
  return processWide(RESILIENCE, () => new Resilience(settings));
}

/** The breaker of an area as the process sees it: "closed" before the first call. For /api/ready and the pages. */
export function breakerStatus(area: Area): BreakerStatus {
  const resilience = processSlot<Resilience>(RESILIENCE).get();
  return resilience?.breakerStatus(area) ?? { state: "closed", retryInMs: 0, consecutiveFailures: 0 };
}
