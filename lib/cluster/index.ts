// What several instances share, through Redis (REDIS_URL): one command connection, one subscriber for the bus
// of messages between instances (cache invalidations, breaker changes, revoked sessions), and the options the
// job queue opens its own connections with. Without REDIS_URL the cluster is this process alone: `redis` is
// null, `publish` reaches nobody else, and every caller keeps its in-process behaviour.
//
// Redis is not trusted to be there: commands fail fast while it is away (no offline queue, a short command
// timeout), callers fall back (the cache is bypassed, the limits use their insurance limiter), and the
// connections come back by themselves when it returns.
import "server-only";

import { Redis, type RedisOptions } from "ioredis";

import { describeError, instanceId, logEvent, redact } from "@/lib/log";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { processSlot, processWide } from "@/lib/process-wide";

/** Every key and channel Gatehouse writes starts with this, so that a Redis may be shared with other programs. */
export const KEY_PREFIX = "gatehouse:";
/** A command gets this long before the caller treats Redis as away. */
const COMMAND_TIMEOUT_MS = 1_000;

export type BusHandler = (message: Record<string, unknown>) => void;

export interface Cluster {
  /** This instance's name (INSTANCE_ID or hostname:pid). */
  instanceId: string;
  /** The command connection; null without REDIS_URL. */
  redis: Redis | null;
  /** Whether Redis is connected now (false without REDIS_URL). */
  up(): boolean;
  /** Tells every other instance (not this one) on `channel`. Best effort: a message lost while Redis is away is covered by TTLs. */
  publish(channel: string, message: Record<string, unknown>): void;
  /** Handles what other instances publish on `channel`. */
  subscribe(channel: string, handler: BusHandler): void;
  /** Connection options for libraries that open their own connections (BullMQ); null without REDIS_URL. */
  connectionOptions(): RedisOptions | null;
  close(): Promise<void>;
}

/** Options for a connection to `url` that never queues commands while Redis is away. */
export function redisOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: Number(parsed.pathname.slice(1) || 0),
    tls: parsed.protocol === "rediss:" ? {} : undefined,
    // Reconnect forever, at most every 2 s: Redis coming back must need no restart.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    connectTimeout: 2_000,
  };
}

/** The cluster of a process without REDIS_URL. */
export function localCluster(id: string = instanceId()): Cluster {
  return {
    instanceId: id,
    redis: null,
    up: () => false,
    publish: () => {},
    subscribe: () => {},
    connectionOptions: () => null,
    close: async () => {},
  };
}

/** Connects to Redis (without waiting for it: an absent Redis must not stop the start). */
export function redisCluster(url: string, id: string = instanceId()): Cluster {
  const options = redisOptions(url);
  const commands = new Redis({
    ...options,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  // Subscribing again after a reconnect is ours, not ioredis's: its own re-subscription is a promise nobody
  // holds, which rejects unhandled when the connection closes before Redis answers it.
  const subscriber = new Redis({ ...options, maxRetriesPerRequest: null, autoResubscribe: false });
  const handlers = new Map<string, BusHandler[]>();
  let wasUp = false;
  // ioredis reports each failed reconnect: say it once per outage, when the connection closes.
  commands.on("error", () => {});
  subscriber.on("error", () => {});
  commands.on("close", () => {
    if (!wasUp) return;
    wasUp = false;
    logEvent(
      "warn",
      "redis_unavailable: the connection closed; the shared cache is bypassed, limits use their in-memory insurance and jobs wait until it returns",
      {
        redis: redact(url),
      },
    );
  });
  commands.on("ready", () => {
    logEvent("info", "redis_connected", { redis: redact(url) });
    wasUp = true;
  });
  // On every connection (a repeated SUBSCRIBE is harmless to Redis).
  subscriber.on("ready", () => {
    if (handlers.size > 0) subscriber.subscribe(...handlers.keys()).catch(() => {});
  });
  subscriber.on("message", (channel: string, raw: string) => {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return;
    }
    if (message.from === id) return;
    for (const handler of handlers.get(channel) ?? []) {
      try {
        handler(message);
      } catch (error) {
        logEvent("error", "bus_handler_failed", { channel, error: describeError(error) });
      }
    }
  });
  return {
    instanceId: id,
    redis: commands,
    up: () => commands.status === "ready",
    publish(channel, message) {
      if (commands.status !== "ready") return;
      commands.publish(KEY_PREFIX + channel, JSON.stringify({ ...message, from: id })).catch(() => {});
    },
    subscribe(channel, handler) {
      const full = KEY_PREFIX + channel;
      const list = handlers.get(full);
      if (list) list.push(handler);
      else {
        handlers.set(full, [handler]);
        // The "ready" handler above subscribes again after a reconnect.
        subscriber.subscribe(full).catch(() => {});
      }
    },
    connectionOptions: () => options,
    async close() {
      await Promise.allSettled([commands.quit(), subscriber.quit()]);
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}

// One cluster per process: every bundle shares the connections and the bus.
const CLUSTER = "cluster";
const clusterSlot = processSlot<Cluster>(CLUSTER);

/** Opens the process's cluster (once; instrumentation at start): Redis when `redisUrl` is set. */
export function startCluster(redisUrl: string | null): Cluster {
  const existing = clusterSlot.get();
  if (existing && (existing.redis !== null) === (redisUrl !== null)) return existing;
  const cluster = redisUrl ? redisCluster(redisUrl) : localCluster();
  clusterSlot.set(cluster);
  if (redisUrl) onShutdown("redis connections", () => cluster.close(), { last: true });
  return cluster;
}

/** The process's cluster; this process alone until startCluster ran (scripts, unit tests). */
export function currentCluster(): Cluster {
  return processWide(CLUSTER, localCluster);
}

/** Waits (at most `timeoutMs`) for Redis to answer; false when it did not. For the start-up and readiness. */
export async function redisReachable(cluster: Cluster, timeoutMs = 1_000): Promise<boolean> {
  if (!cluster.redis) return true;
  if (!cluster.up()) return false;
  try {
    const answer = await Promise.race([
      cluster.redis.ping(),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs).unref()),
    ]);
    return answer === "PONG";
  } catch {
    return false;
  }
}
