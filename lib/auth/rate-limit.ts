// A bounded, in-memory, fixed-window rate limiter: at most `limit` hits per key in a window that starts at
// the key's first hit (a burst at a window's end and the next one's start can reach twice the limit within a
// minute; the simple rule keeps Retry-After exact). Bounded: past `maxKeys` keys, the least recently used is forgotten (it restarts from
// zero, which errs on the side of serving). Per process: several portal instances each count their own, until
// a shared store replaces this (a later issue).
import "server-only";

import type { PurchaseRateLimits } from "@/lib/config/auth";

import { addressKey } from "./address";

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Window {
  startedAt: number;
  hits: number;
}

export const DEFAULT_MAX_KEYS = 10_000;

export class RateLimiter {
  // Map keeps insertion order: re-inserting on every hit makes the first entry the least recently used.
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly rule: RateLimitRule,
    private readonly maxKeys: number = DEFAULT_MAX_KEYS,
  ) {}

  /** Would a hit for `key` be allowed now? Counts nothing, so that every limit can be asked before any counts. */
  check(key: string, now: number = Date.now()): RateLimitDecision {
    const window = this.liveWindow(key, now);
    if (!window || window.hits < this.rule.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + this.rule.windowMs - now) / 1000)) };
  }

  /** Counts one hit for `key`. */
  record(key: string, now: number = Date.now()): void {
    const window = this.liveWindow(key, now) ?? { startedAt: now, hits: 0 };
    window.hits += 1;
    this.windows.delete(key);
    this.windows.set(key, window);
    while (this.windows.size > this.maxKeys) {
      const oldest = this.windows.keys().next();
      if (oldest.done) break;
      this.windows.delete(oldest.value);
    }
  }

  get size(): number {
    return this.windows.size;
  }

  private liveWindow(key: string, now: number): Window | null {
    const window = this.windows.get(key);
    return window && now - window.startedAt < this.rule.windowMs ? window : null;
  }
}

/**
 * The client address bucket when Gatehouse cannot know the address (no TRUST_PROXY): every such request counts
 * in one shared bucket, so the per-address limit still caps the whole instance and no header can dodge it.
 */
export const UNKNOWN_ADDRESS_BUCKET = "direct";

interface PurchaseLimiters {
  rules: PurchaseRateLimits;
  perUser: RateLimiter;
  perIp: RateLimiter;
}

// On globalThis: Next bundles each route separately, and all of them must count in the same windows.
const SLOT = Symbol.for("gatehouse.purchaseRateLimiters");
const globalSlots = globalThis as unknown as Record<symbol, PurchaseLimiters | undefined>;

function purchaseLimiters(rules: PurchaseRateLimits): PurchaseLimiters {
  const current = globalSlots[SLOT];
  if (current && current.rules.perUser === rules.perUser && current.rules.perIp === rules.perIp) return current;
  const created = {
    rules,
    perUser: new RateLimiter({ limit: rules.perUser, windowMs: 60_000 }),
    perIp: new RateLimiter({ limit: rules.perIp, windowMs: 60_000 }),
  };
  globalSlots[SLOT] = created;
  return created;
}

/**
 * One purchase validation by `userId` from `address` (null: unknown). Refused when either limit is reached;
 * then nothing is counted, so a refused request does not prolong the wait.
 */
export function checkPurchaseRateLimit(
  rules: PurchaseRateLimits,
  { userId, address }: { userId: string; address: string | null },
  now: number = Date.now(),
): { allowed: true } | { allowed: false; retryAfterSeconds: number; limitedBy: "user" | "ip" } {
  const limiters = purchaseLimiters(rules);
  const ipKey = addressKey(address) ?? UNKNOWN_ADDRESS_BUCKET;
  const byUser = limiters.perUser.check(userId, now);
  const byIp = limiters.perIp.check(ipKey, now);
  if (!byUser.allowed || !byIp.allowed) {
    const userWait = byUser.allowed ? 0 : byUser.retryAfterSeconds;
    const ipWait = byIp.allowed ? 0 : byIp.retryAfterSeconds;
    return { allowed: false, retryAfterSeconds: Math.max(userWait, ipWait), limitedBy: userWait >= ipWait ? "user" : "ip" };
  }
  limiters.perUser.record(userId, now);
  limiters.perIp.record(ipKey, now);
  return { allowed: true };
}

// Requests per API token, apart from any user's or address's limits: a leaked or runaway script is held to it.
const TOKEN_SLOT = Symbol.for("gatehouse.tokenRateLimiter");
const tokenSlots = globalThis as unknown as Record<symbol, { perMinute: number; limiter: RateLimiter } | undefined>;

/** One request with the token `tokenId`, at most `perMinute` a minute (TOKEN_RATE_LIMIT_PER_MINUTE). */
export function checkTokenRateLimit(perMinute: number, tokenId: string, now: number = Date.now()): RateLimitDecision {
  let slot = tokenSlots[TOKEN_SLOT];
  if (!slot || slot.perMinute !== perMinute) {
    slot = { perMinute, limiter: new RateLimiter({ limit: perMinute, windowMs: 60_000 }) };
    tokenSlots[TOKEN_SLOT] = slot;
  }
  const decision = slot.limiter.check(tokenId, now);
  if (decision.allowed) slot.limiter.record(tokenId, now);
  return decision;
}
