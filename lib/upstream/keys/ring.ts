// Which key each area uses, in this process, and the clients built with it. An area's key comes from the
// environment (it always wins) or, when the environment leaves it out, from the portal's store. Every instance
// polls the store's upstream_key_state (one query on a few rows every KEY_POLL_MS, never per request) and, when
// an area's version moved, opens the new active key and builds a new client for it; the reference to the set of
// clients is then swapped in one assignment. A request holds the client it started with, so requests in flight
// finish with the key they began with and every request that starts after the swap carries the new one.
// When to look is a `KeyChangeFeed`: by default a poll of the store every KEY_POLL_MS; a shared bus (Redis pub/sub)
// can replace it by calling `onChange` when a key is saved anywhere — the ring then reads the store as before.
import "server-only";

import type { Area } from "@/lib/contract/areas";
import { AREAS } from "@/lib/contract/areas";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { emitEvent } from "@/lib/events";
import { describeError, logEvent, registerSecrets } from "@/lib/log";
import { processWide } from "@/lib/process-wide";

import { isCircuitOpenError, isUpstreamError } from "../errors";
import type { UpstreamPolicy } from "../policy";
import { areaHealth } from "./health";
import { keyFingerprint, last4Of } from "./fingerprint";
import {
  clearRejection,
  readActiveKey,
  readKeyStates,
  recordRejection,
  type AreaKeyState,
  type StoredKey,
} from "./store";

export const KEY_POLL_MS = 2_000;

export type KeySource = "environment" | "portal" | "none";

/** Tells the ring when an area's key may have changed. `start` returns a function that stops it. */
export interface KeyChangeFeed {
  start(onChange: () => void): () => void;
}

/** The default feed: every `intervalMs`, unref'd (it never keeps a process alive). */
export function pollingFeed(intervalMs = KEY_POLL_MS): KeyChangeFeed {
  return {
    start(onChange) {
      const timer = setInterval(onChange, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

export interface KeyInUse {
  source: KeySource;
  fingerprint: string | null;
  last4: string | null;
  /** The stored key's row (portal keys only). */
  stored: StoredKey | null;
}

export interface KeyRejection {
  area: Area;
  fingerprint: string;
  last4: string | null;
  source: KeySource;
  at: string;
}

type RejectionListener = (rejection: KeyRejection) => void | Promise<void>;
const rejectionListeners = () => processWide("upstream.keyRejectedListeners", () => new Set<RejectionListener>());

/**
 * Called once per rejection of a key (not per request): the audit row `upstream.key_rejected` is written by the
 * listener lib/api registers; a webhook can listen here too. Returns a function that removes the listener.
 */
export function onKeyRejected(listener: RejectionListener): () => void {
  const listeners = rejectionListeners();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface AreaClients<R, I> {
  reports: R | null;
  items: I | null;
}

export interface RingDeps<R, I> {
  config: Pick<Config, "upstream">;
  db: () => Promise<Db>;
  /** The secret fingerprints are keyed with (the data key; ./fingerprint.ts). */
  fingerprintSecret: string;
  /** Builds an area's client for a key; `policy` wraps the area's shared policy to record its health. */
  build: { reports: (key: string, watch: ClientWatch) => R; items: (key: string, watch: ClientWatch) => I };
  /** When to read the store again; default pollingFeed(). */
  feed?: KeyChangeFeed;
}

/** What a client reports back: its exchanges (for health), a rejected key, a call that worked. */
export interface ClientWatch {
  observe(policy: UpstreamPolicy): UpstreamPolicy;
  wrap<T extends object>(client: T): T;
}

interface Entry {
  version: number;
  inUse: KeyInUse;
}

export class KeyRing<R extends object, I extends object> {
  private clients: AreaClients<R, I> = { reports: null, items: null };
  private readonly entries: Record<Area, Entry>;
  private states: Partial<Record<Area, AreaKeyState>> = {};
  private readonly reported = new Map<Area, string>();
  private stopFeed: (() => void) | null = null;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly deps: RingDeps<R, I>) {
    const none: KeyInUse = { source: "none", fingerprint: null, last4: null, stored: null };
    this.entries = { reports: { version: -1, inUse: none }, items: { version: -1, inUse: none } };
    for (const area of AREAS) {
      const settings = deps.config.upstream[area];
      if (settings?.apiKey)
        this.install(
          area,
          settings.apiKey,
          {
            source: "environment",
            fingerprint: keyFingerprint(settings.apiKey, deps.fingerprintSecret),
            last4: last4Of(settings.apiKey),
            stored: null,
          },
          -1,
        );
    }
  }

  /** The clients as they are now. Hold on to the object: it keeps its keys however the ring moves on. */
  current(): AreaClients<R, I> {
    return this.clients;
  }

  keyInUse(area: Area): KeyInUse {
    return this.entries[area].inUse;
  }

  /** The upstream's last rejection of the key in use, as every instance has learnt it from the store. */
  rejection(area: Area): KeyRejection | null {
    const state = this.states[area];
    const inUse = this.entries[area].inUse;
    if (!state?.rejectedAt || !state.rejectedFingerprint || state.rejectedFingerprint !== inUse.fingerprint)
      return null;
    return {
      area,
      fingerprint: state.rejectedFingerprint,
      last4: inUse.last4,
      source: inUse.source,
      at: state.rejectedAt,
    };
  }

  /** Reads the store's versions and switches every area whose key changed. Concurrent calls share one read. */
  refresh(): Promise<void> {
    this.refreshing ??= this.readStore().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /** Follows the feed (default: a poll every KEY_POLL_MS); a failed read keeps the keys in use. */
  startPolling(): void {
    if (this.stopFeed) return;
    this.stopFeed = (this.deps.feed ?? pollingFeed()).start(() => {
      this.refresh().catch((error: unknown) =>
        logEvent("warn", "Could not read the upstream keys' state from the store; keeping the keys in use.", {
          error: describeError(error),
        }),
      );
    });
  }

  stopPolling(): void {
    this.stopFeed?.();
    this.stopFeed = null;
  }

  private async readStore(): Promise<void> {
    const db = await this.deps.db();
    const states = await readKeyStates(db);
    this.states = states;
    for (const area of AREAS) {
      const settings = this.deps.config.upstream[area];
      // The environment decides this area (or it is not configured): the store's keys are not used.
      if (!settings || settings.apiKey !== null) continue;
      const version = states[area]?.version ?? 0;
      if (version === this.entries[area].version) continue;
      const active = await readActiveKey(db, area, this.deps.config.upstream.keyEncryption);
      if (active) {
        registerSecrets([active.key]);
        this.install(
          area,
          active.key,
          {
            source: "portal",
            fingerprint: active.stored.fingerprint,
            last4: active.stored.last4,
            stored: active.stored,
          },
          version,
        );
      } else {
        this.entries[area] = { version, inUse: { source: "none", fingerprint: null, last4: null, stored: null } };
        this.clients = { ...this.clients, [area]: null };
      }
      logEvent(
        "info",
        `Upstream key of ${area}: now ${active ? `the portal's key ${active.stored.fingerprint}` : "none (set one on the Upstream connections page)"}.`,
        {
          area,
          key_fingerprint: active?.stored.fingerprint ?? null,
          key_version: version,
        },
      );
    }
  }

  private install(area: Area, key: string, inUse: KeyInUse, version: number): void {
    const watch = this.watchFor(area, inUse);
    const client = area === "reports" ? this.deps.build.reports(key, watch) : this.deps.build.items(key, watch);
    this.entries[area] = { version, inUse };
    // One assignment: a request that already took `current()` keeps its object, the next one gets this.
    this.clients = { ...this.clients, [area]: client };
  }

  private watchFor(area: Area, inUse: KeyInUse): ClientWatch {
    const health = areaHealth(area);
    const fingerprint = inUse.fingerprint ?? "";
    return {
      observe: (policy) => ({
        ...policy,
        send: async (request) => {
          const started = performance.now();
          try {
            const response = await policy.send(request);
            health.record(response.status, performance.now() - started);
            return response;
          } catch (error) {
            // An open breaker sent nothing: not an exchange with the upstream.
            if (!isCircuitOpenError(error))
              health.record(isUpstreamError(error) ? (error.status ?? null) : null, performance.now() - started);
            throw error;
          }
        },
      }),
      wrap: <T extends object>(client: T): T => {
        const wrapped: Record<string, unknown> = {};
        for (const [name, method] of Object.entries(client)) {
          wrapped[name] =
            typeof method !== "function"
              ? method
              : async (...args: unknown[]) => {
                  try {
                    const result: unknown = await (method as (...a: unknown[]) => Promise<unknown>)(...args);
                    // A key this instance saw rejected, or the store says is, works (again, or a new one does).
                    if (this.reported.has(area) || this.rejection(area)) this.keyWorks(area, fingerprint);
                    return result;
                  } catch (error) {
                    if (isUpstreamError(error) && error.kind === "auth") this.keyRejected(area, inUse);
                    throw error;
                  }
                };
        }
        return wrapped as T;
      },
    };
  }

  private keyRejected(area: Area, inUse: KeyInUse): void {
    const fingerprint = inUse.fingerprint;
    if (!fingerprint || this.reported.get(area) === fingerprint) return;
    this.reported.set(area, fingerprint);
    const rejection: KeyRejection = {
      area,
      fingerprint,
      last4: inUse.last4,
      source: inUse.source,
      at: new Date().toISOString(),
    };
    this.states = {
      ...this.states,
      [area]: { version: this.states[area]?.version ?? 0, rejectedAt: rejection.at, rejectedFingerprint: fingerprint },
    };
    logEvent(
      "warn",
      `The upstream of ${area} rejected its key ${fingerprint}: rotate it on the Upstream connections page.`,
      { area, key_fingerprint: fingerprint },
    );
    void (async () => {
      try {
        await recordRejection(await this.deps.db(), area, fingerprint);
        for (const listener of rejectionListeners()) await listener(rejection);
      } catch (error) {
        logEvent("error", "Could not record the upstream's rejection of a key.", { area, error: describeError(error) });
      }
    })();
  }

  private keyWorks(area: Area, fingerprint: string): void {
    // This instance's own report of a rejection ends whichever key works now (the same one restored, or a new one).
    const reported = this.reported.has(area);
    this.reported.delete(area);
    const state = this.states[area];
    const stored = Boolean(state && state.rejectedFingerprint === fingerprint);
    // Once per rejection ended (per instance, as the breaker's events): the notifications' "key restored" (issue 35)
    // and webhooks.
    if (reported || stored) void emitEvent({ type: "upstream.key_restored", data: { area, fingerprint } });
    if (!state || !stored) return;
    this.states = { ...this.states, [area]: { ...state, rejectedAt: null, rejectedFingerprint: null } };
    void this.deps
      .db()
      .then((db) => clearRejection(db, area, fingerprint))
      .catch((error: unknown) =>
        logEvent("warn", "Could not clear a key's rejection in the store.", { area, error: describeError(error) }),
      );
  }
}
