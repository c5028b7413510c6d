// The policies' state shared by every instance through Redis (lib/cluster), when REDIS_URL is set:
//
// - the cache: an answer is stored under its request key with the generation of each of its tags at the time
//   the call began; a change bumps the generations of its tags (so every instance's next read misses) and tells
//   the other instances on the bus to drop their in-process copies — visible everywhere within milliseconds;
// - single flight across instances: the first instance to miss takes a short lock and asks the upstream; the
//   others wait for its answer in Redis for as long as the holder lives: the holder renews its lock while its call
//   runs, and a dead holder's lock lapses within LOCK_MS, when the next to look takes it;
// - the breakers and the upstream's Retry-After: an instance that opens an area's breaker, or is told to wait
//   by a 429, says so on the bus and in Redis, so that no other instance spends its own failing calls.
//
// Every operation is best effort: when Redis is away the caller goes on as a process alone (cache bypassed).
import { setTimeout as sleep } from "node:timers/promises";

import "server-only";

import type { Area } from "@/lib/contract/areas";
import { KEY_PREFIX, type Cluster } from "@/lib/cluster";

/** How long a single-flight lock lives if its holder dies; a live holder renews it every half of that. */
export const LOCK_MS = 5_000;
const POLL_MS = 15;

const cacheKey = (key: string) => `${KEY_PREFIX}cache:${key}`;
const genKey = (tag: string) => `${KEY_PREFIX}gen:${tag}`;
const lockKey = (key: string) => `${KEY_PREFIX}flight:${key}`;
export const holdKey = (area: Area, what: "breaker" | "retry_after") => `${KEY_PREFIX}${what}:${area}`;

export const CHANNELS = { invalidate: "invalidate", breaker: "breaker", retryAfter: "retry-after" } as const;

const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const RENEW =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

interface Stored {
  g: string[];
  v: unknown;
}

export type SharedLookup =
  { kind: "hit"; value: unknown } | { kind: "miss"; gens: string[]; locked: boolean } | { kind: "down" };

export class SharedPolicyState {
  constructor(private readonly cluster: Cluster) {}

  usable(): boolean {
    return this.cluster.redis !== null && this.cluster.up();
  }

  /** The answer in Redis, if its tags have not changed since it was asked; else the tags' generations now. */
  async lookup(key: string, tags: readonly string[]): Promise<SharedLookup> {
    const redis = this.cluster.redis;
    if (!redis || !this.cluster.up()) return { kind: "down" };
    try {
      const [raw, lock, ...gens] = await redis.mget(cacheKey(key), lockKey(key), ...tags.map(genKey));
      const current = gens.map((gen) => gen ?? "0");
      if (raw) {
        const stored = JSON.parse(raw) as Stored;
        if (stored.g.length === current.length && stored.g.every((gen, i) => gen === current[i]))
          return { kind: "hit", value: stored.v };
      }
      return { kind: "miss", gens: current, locked: lock !== null };
    } catch {
      return { kind: "down" };
    }
  }

  async store(key: string, gens: string[], value: unknown, ttlMs: number): Promise<void> {
    const redis = this.cluster.redis;
    if (!redis || ttlMs <= 0) return;
    await redis.set(cacheKey(key), JSON.stringify({ g: gens, v: value } satisfies Stored), "PX", ttlMs).catch(() => {});
  }

  /**
   * Loads through the cluster's single flight: the answer another instance stored, or this instance's own call
   * (`load`) when it holds the lock or Redis is away. The others wait while the lock is held, however long the
   * holder's call takes under load (a wait with a deadline of its own made a second call whenever the first was
   * slow); a holder that dies stops renewing, and its lock lapses within LOCK_MS. An answer of our own is stored
   * (unless `keep()` says a change made it stale meanwhile) under the tags' generations read before the call —
   * and before the lock is let go, so that nobody waiting finds neither lock nor answer.
   */
  async load<T>(
    key: string,
    tags: readonly string[],
    load: () => Promise<T>,
    store: { ttlMs: number; keep: () => boolean; prepare: (value: T) => T },
  ): Promise<{ value: T; from: "shared" | "upstream" }> {
    const redis = this.cluster.redis;
    const token = crypto.randomUUID();
    for (;;) {
      const found = await this.lookup(key, tags);
      if (found.kind === "hit") return { value: store.prepare(found.value as T), from: "shared" };
      if (found.kind === "down" || !redis) return { value: store.prepare(await load()), from: "upstream" };
      if (!found.locked) {
        const taken = await redis.set(lockKey(key), token, "PX", LOCK_MS, "NX").catch(() => "failed" as const);
        // Redis answered the look but not the lock: go on as a process alone rather than wait on nobody.
        if (taken === "failed") return { value: store.prepare(await load()), from: "upstream" };
        if (taken === "OK") return this.loadHoldingLock(key, tags, token, load, store);
      }
      await sleep(POLL_MS);
    }
  }

  private async loadHoldingLock<T>(
    key: string,
    tags: readonly string[],
    token: string,
    load: () => Promise<T>,
    store: { ttlMs: number; keep: () => boolean; prepare: (value: T) => T },
  ): Promise<{ value: T; from: "shared" | "upstream" }> {
    const redis = this.cluster.redis!;
    const renew = setInterval(
      () => void redis.eval(RENEW, 1, lockKey(key), token, LOCK_MS).catch(() => {}),
      LOCK_MS / 2,
    );
    try {
      // The holder before us may have stored its answer and let go between our look and our lock.
      const found = await this.lookup(key, tags);
      if (found.kind === "hit") return { value: store.prepare(found.value as T), from: "shared" };
      const value = store.prepare(await load());
      if (found.kind === "miss" && store.keep()) await this.store(key, found.gens, value, store.ttlMs);
      return { value, from: "upstream" };
    } finally {
      clearInterval(renew);
      await redis.eval(RELEASE, 1, lockKey(key), token).catch(() => {});
    }
  }

  /** A change: every instance's copies of answers with these tags are stale from now on. */
  async invalidate(tags: readonly string[]): Promise<void> {
    const redis = this.cluster.redis;
    if (!redis || tags.length === 0) return;
    try {
      const pipeline = redis.multi();
      for (const tag of tags) pipeline.incr(genKey(tag));
      await pipeline.exec();
    } catch {
      // Redis away: the answers it holds are unreachable too; the bus message below is lost, TTLs cover the rest.
    }
    this.cluster.publish(CHANNELS.invalidate, { tags: [...tags] });
  }

  /** Tells the other instances (and Redis, for those that start later) that `area` must not be called until `until`. */
  hold(area: Area, what: "breaker" | "retry_after", until: number): void {
    const redis = this.cluster.redis;
    const ms = until - Date.now();
    if (!redis || ms <= 0) return;
    redis.set(holdKey(area, what), String(until), "PX", ms).catch(() => {});
    this.cluster.publish(what === "breaker" ? CHANNELS.breaker : CHANNELS.retryAfter, { area, until });
  }

  /** A breaker closed again by a successful call: the others may call at once. */
  release(area: Area): void {
    const redis = this.cluster.redis;
    if (!redis) return;
    redis.del(holdKey(area, "breaker")).catch(() => {});
    this.cluster.publish(CHANNELS.breaker, { area, until: 0 });
  }

  /** The holds in Redis now (an instance that starts while another has found an upstream failing). */
  async holds(area: Area): Promise<{ breaker: number; retryAfter: number }> {
    const redis = this.cluster.redis;
    if (!redis || !this.cluster.up()) return { breaker: 0, retryAfter: 0 };
    const [breaker, retryAfter] = await redis
      .mget(holdKey(area, "breaker"), holdKey(area, "retry_after"))
      .catch(() => [null, null]);
    return { breaker: Number(breaker ?? 0), retryAfter: Number(retryAfter ?? 0) };
  }
}
