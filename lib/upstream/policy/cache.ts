// A small in-process cache of upstream read results, on lru-cache: it keeps the least recently used order, the
// bounds in entries and in bytes, and each entry's lifetime. Ours on top: each entry carries tags
// ("reports:list", "reports:item:42") that a change drops at once, and an expired entry is kept a while longer so
// that it can be served once while it is refreshed (stale-while-revalidate); lru-cache drops it when that stale
// window ends.
import { createHash } from "node:crypto";

import { LRUCache } from "lru-cache";

export interface CacheSettings {
  maxEntries: number;
  maxBytes: number;
}

export const DEFAULT_CACHE_LIMITS: CacheSettings = { maxEntries: 1000, maxBytes: 32 * 1024 * 1024 };

interface Entry {
  value: unknown;
  tags: readonly string[];
  expiresAt: number;
  /** Set once the expired entry has been served while a refresh runs. */
  staleServed: boolean;
}

export type CacheLookup =
  | { kind: "fresh"; value: unknown }
  /** Expired, not yet served stale: the caller serves it and refreshes in the background. */
  | { kind: "stale"; value: unknown }
  | { kind: "miss" };

const MISS: CacheLookup = { kind: "miss" };

export class ResponseCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly keysByTag = new Map<string, Set<string>>();

  constructor(
    limits: CacheSettings = DEFAULT_CACHE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache<string, Entry>({
      max: limits.maxEntries,
      maxSize: limits.maxBytes,
      perf: { now },
      // Read the clock on every look: the default caches it for a millisecond with a timer.
      ttlResolution: 0,
      // Evicted, expired, replaced or dropped: the entry leaves its tags' lists too.
      dispose: (entry, key) => this.untag(key, entry.tags),
    });
  }

  lookup(key: string): CacheLookup {
    const entry = this.entries.get(key);
    if (!entry) return MISS;
    if (this.now() < entry.expiresAt) return { kind: "fresh", value: entry.value };
    // Expired and already served stale once: the caller must wait for the upstream.
    if (entry.staleServed) return MISS;
    entry.staleServed = true;
    return { kind: "stale", value: entry.value };
  }

  /** Stores a value for `ttlMs` (then serves it stale for up to `staleMs` more, once). Too big a value is not kept. */
  store(
    key: string,
    value: unknown,
    options: { ttlMs: number; staleMs: number; tags: readonly string[]; bytes: number },
  ): void {
    // Checked here: lru-cache would also drop the entry already held under the key.
    if (options.ttlMs <= 0 || options.bytes > this.entries.maxSize) return;
    this.entries.set(
      key,
      { value, tags: options.tags, expiresAt: this.now() + options.ttlMs, staleServed: false },
      {
        // lru-cache keeps an entry while its age is at most `ttl`; ours ends when the stale window does (whole ms).
        ttl: options.ttlMs + options.staleMs - 1,
        // lru-cache needs a positive size.
        size: Math.max(1, options.bytes),
      },
    );
    for (const tag of options.tags) {
      let keys = this.keysByTag.get(tag);
      if (!keys) this.keysByTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Drops every entry carrying one of the tags; returns how many went. */
  invalidate(tags: readonly string[]): number {
    let dropped = 0;
    for (const tag of tags) {
      for (const key of [...(this.keysByTag.get(tag) ?? [])]) {
        if (this.entries.delete(key)) dropped += 1;
      }
    }
    return dropped;
  }

  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  /** The keys held, least recently used first (tests check that no key holds a secret). */
  keys(): string[] {
    return [...this.entries.rkeys()];
  }

  private untag(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }
}

/** A short, one-way name for an API key: it tells keys apart in cache keys without being the key. */
export function keyFingerprint(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 16);
}

/**
 * The normalised request as a cache key: area, which key (its fingerprint), method, path and the query sorted by
 * name, so that `?a=1&b=2` and `?b=2&a=1` are one entry. The caller leaves the key itself out of `query`.
 */
export function requestKey(parts: {
  area: string;
  keyFingerprint: string;
  method: string;
  path: string;
  query?: Record<string, string | number | undefined>;
}): string {
  const query = new URLSearchParams();
  for (const name of Object.keys(parts.query ?? {}).sort()) {
    const value = parts.query?.[name];
    if (value !== undefined) query.append(name, String(value));
  }
  return `${parts.area}|${parts.keyFingerprint}|${parts.method} ${parts.path}?${query.toString()}`;
}
