// A small in-process cache of upstream read results: least recently used entries go first, bounded both in
// entries and in bytes. Each entry carries tags ("reports:list", "reports:item:42") that a change drops at once.
// An expired entry is kept a while longer so that it can be served once while it is refreshed
// (stale-while-revalidate); it is dropped when its stale window ends.
import { createHash } from "node:crypto";

export interface CacheSettings {
  maxEntries: number;
  maxBytes: number;
}

export const DEFAULT_CACHE_LIMITS: CacheSettings = { maxEntries: 1000, maxBytes: 32 * 1024 * 1024 };

interface Entry {
  value: unknown;
  bytes: number;
  tags: readonly string[];
  expiresAt: number;
  /** Until when the expired entry may still be served, once, while a refresh runs. */
  staleUntil: number;
  staleServed: boolean;
}

export type CacheLookup =
  | { kind: "fresh"; value: unknown }
  /** Expired, not yet served stale: the caller serves it and refreshes in the background. */
  | { kind: "stale"; value: unknown }
  | { kind: "miss" };

export class ResponseCache {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();
  private readonly keysByTag = new Map<string, Set<string>>();
  private totalBytes = 0;

  constructor(
    private readonly limits: CacheSettings = DEFAULT_CACHE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  lookup(key: string): CacheLookup {
    const entry = this.entries.get(key);
    if (!entry) return { kind: "miss" };
    const now = this.now();
    if (now < entry.expiresAt) {
      this.touch(key, entry);
      return { kind: "fresh", value: entry.value };
    }
    if (now < entry.staleUntil && !entry.staleServed) {
      entry.staleServed = true;
      return { kind: "stale", value: entry.value };
    }
    // Expired and already served stale once (or past its stale window): the caller must wait for the upstream.
    if (now >= entry.staleUntil) this.delete(key);
    return { kind: "miss" };
  }

  /** Stores a value for `ttlMs` (then serves it stale for up to `staleMs` more, once). Too big a value is not kept. */
  store(
    key: string,
    value: unknown,
    options: { ttlMs: number; staleMs: number; tags: readonly string[]; bytes: number },
  ): void {
    if (options.ttlMs <= 0 || options.bytes > this.limits.maxBytes) return;
    this.delete(key);
    const now = this.now();
    const entry: Entry = {
      value,
      bytes: options.bytes,
      tags: options.tags,
      expiresAt: now + options.ttlMs,
      staleUntil: now + options.ttlMs + options.staleMs,
      staleServed: false,
    };
    this.entries.set(key, entry);
    this.totalBytes += entry.bytes;
    for (const tag of entry.tags) {
      let keys = this.keysByTag.get(tag);
      if (!keys) this.keysByTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    this.evict();
  }

  /** Drops every entry carrying one of the tags; returns how many went. */
  invalidate(tags: readonly string[]): number {
    let dropped = 0;
    for (const tag of tags) {
      for (const key of [...(this.keysByTag.get(tag) ?? [])]) {
        if (this.delete(key)) dropped += 1;
      }
    }
    return dropped;
  }

  clear(): void {
    this.entries.clear();
    this.keysByTag.clear();
    this.totalBytes = 0;
  }

  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.totalBytes };
  }

  /** The keys held, least recently used first (tests check that no key holds a secret). */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  private touch(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private evict(): void {
    for (const [key] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.totalBytes <= this.limits.maxBytes) return;
      this.delete(key);
    }
  }

  private delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
    return true;
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
