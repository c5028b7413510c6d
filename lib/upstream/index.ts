// The upstream clients, built from the configuration and the key each area uses (./keys: the environment's, or
// the one kept in the portal, switched without a restart). Route handlers and server-rendered pages get their
// clients here; nothing else builds an upstream URL.
import "server-only";

import { getConfig, type Config } from "@/lib/config";
import { storeTarget } from "@/lib/config/store";
import { getDb } from "@/lib/db";
import { processSlot } from "@/lib/process-wide";

import { createItemsClient, type ItemsClient } from "./items";
import { KeyRing } from "./keys/ring";
import { processResilience, resilienceSettingsFrom } from "./policy";
import { createReportsClient, type ReportsClient } from "./reports";

export { isCircuitOpenError, isUpstreamError, UpstreamError } from "./errors";
export { breakerStatus } from "./policy";
export type { ItemsClient } from "./items";
export type { ReportsClient } from "./reports";

export interface Upstreams {
  config: Config;
  /** null when area A is not configured, or its key is kept in the portal and none is set yet. */
  reports: ReportsClient | null;
  /** null when area B is not configured (or has no key yet). */
  items: ItemsClient | null;
}

export type UpstreamKeyRing = KeyRing<ReportsClient, ItemsClient>;

// One ring per process and configuration: a new configuration builds a new ring.
const ringSlot = processSlot<{ config: Config; ready: Promise<UpstreamKeyRing> }>("upstream.keyRing");

/** The process's key ring: built on first use, its first read of the store awaited, then polling. */
export async function upstreamKeyRing(): Promise<UpstreamKeyRing> {
  const config = await getConfig();
  const slot = ringSlot.get();
  if (slot && slot.config === config) return slot.ready;
  const ready = (async () => {
    // One Resilience per process (cache, breakers, retry budgets), whichever bundle builds its clients first.
    const resilience = processResilience(resilienceSettingsFrom(config.upstream.policy));
    const timeoutMs = config.upstream.timeoutMs;
    const ring: UpstreamKeyRing = new KeyRing({
      config,
      db: () => getDb(storeTarget()),
      fingerprintSecret: config.dataKey,
      build: {
        reports: (apiKey, watch) =>
          watch.wrap(
            createReportsClient(
              { baseUrl: config.upstream.reports!.baseUrl, apiKey },
              { timeoutMs, policy: watch.observe(resilience.for("reports")) },
            ),
          ),
        items: (apiKey, watch) =>
          watch.wrap(
            createItemsClient(
              { ...config.upstream.items!, apiKey },
              { timeoutMs, policy: watch.observe(resilience.for("items")) },
            ),
          ),
      },
    });
    await ring.refresh();
    ring.startPolling();
    return ring;
  })();
  ringSlot.set({ config, ready });
  ready.catch(() => {
    if (ringSlot.get()?.ready === ready) ringSlot.set(undefined);
  });
  return ready;
}

/** The clients of both areas, with the keys in use now. Waits for the configuration (in demo mode, the sandbox). */
export async function getUpstreams(): Promise<Upstreams> {
  const ring = await upstreamKeyRing();
  const { reports, items } = ring.current();
  return { config: await getConfig(), reports, items };
}
