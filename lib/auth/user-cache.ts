// What every request's session check needs of its user (the row: session_version, disabled, role), kept in
// this process for at most TTL_MS instead of asked of the store on every request — the main cost of a cached
// page. A change to a user (logout, disable, role or password change) drops the copy at once here and, through
// the Redis bus, on every other instance. The cache is on only where that is complete: on a SQLite store, where
// any commit by another process (the users CLI) is noticed at once (externalChangeMark) and drops every copy;
// or with a connected Redis, where the users CLI announces its changes too. On PostgreSQL without Redis —
// several instances that cannot tell each other — every request asks the store, as before.
import "server-only";

import { currentCluster, redisCluster, type Cluster } from "@/lib/cluster";
import { dialectOf, externalChangeMark, type Db } from "@/lib/db";
import { processWide } from "@/lib/process-wide";

import { getUserById, type User } from "./users";

/** The safety net: a message lost (Redis away a moment) or a change from another process is seen this late at most. */
export const TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = "users";

interface UserCacheState {
  entries: Map<string, { user: User | null; at: number }>;
  /** Bumped for a user when a change drops him: a load that began before the change is not kept. */
  generations: Map<string, number>;
  subscribed: Cluster | null;
  /** SQLite: the store's externalChangeMark when the copies were made; another one drops them all. */
  mark: number | null;
}

// One cache for every bundle, or a logout through one route would leave another route's copy alive.
function state(): UserCacheState {
  return processWide<UserCacheState>("auth.userCache", () => ({
    entries: new Map(),
    generations: new Map(),
    subscribed: null,
    mark: null,
  }));
}

function dropHere(id: string): void {
  const current = state();
  current.entries.delete(id);
  current.generations.set(id, (current.generations.get(id) ?? 0) + 1);
}

function usable(db: Db, cluster: Cluster): boolean {
  if (cluster.redis) {
    const current = state();
    if (current.subscribed !== cluster) {
      current.subscribed = cluster;
      cluster.subscribe(CHANNEL, (message) => {
        if (typeof message.id === "string") dropHere(message.id);
      });
    }
    if (!cluster.up()) return false;
  } else if (dialectOf(db) !== "sqlite") {
    return false;
  }
  // Another process wrote to a SQLite store (the CLI disabled someone): nothing kept may predate it.
  const mark = externalChangeMark(db);
  const current = state();
  if (mark !== null && mark !== current.mark) {
    for (const id of current.entries.keys()) dropHere(id);
    current.mark = mark;
  }
  return true;
}

/** The user of a session, from this process's copy when it is young enough, else from the store. */
export async function sessionUser(
  db: Db,
  id: string,
  now = Date.now(),
  cluster: Cluster = currentCluster(),
): Promise<User | null> {
  if (!usable(db, cluster)) return getUserById(db, id);
  const current = state();
  const entry = current.entries.get(id);
  if (entry && now - entry.at < TTL_MS) return entry.user;
  const generation = current.generations.get(id) ?? 0;
  const user = await getUserById(db, id);
  if ((current.generations.get(id) ?? 0) === generation) {
    current.entries.delete(id);
    current.entries.set(id, { user: user && Object.freeze(user), at: now });
    if (current.entries.size > MAX_ENTRIES) current.entries.delete(current.entries.keys().next().value!);
  }
  return user;
}

/** A user changed in the store: every instance's copy goes. Call after the change is committed. */
export function forgetUser(id: string, cluster: Cluster = currentCluster()): void {
  dropHere(id);
  cluster.publish(CHANNEL, { id });
}

/**
 * From a process that is not an instance (the users CLI): tells the instances sharing `redisUrl` that the user
 * changed, so that none keeps its copy. Waits for Redis at most `timeoutMs`; without Redis there is nobody to tell
 * (on SQLite each instance notices the CLI's commit itself; on PostgreSQL without Redis nothing is kept).
 */
export async function announceUserChange(redisUrl: string | null, id: string, timeoutMs = 2_000): Promise<boolean> {
  if (!redisUrl) return false;
  const cluster = redisCluster(redisUrl, `cli:${process.pid}`);
  try {
    for (const until = Date.now() + timeoutMs; !cluster.up() && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    if (!cluster.up()) return false;
    cluster.publish(CHANNEL, { id });
    return true;
  } finally {
    await cluster.close();
  }
}
