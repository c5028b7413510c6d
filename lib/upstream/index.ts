// The upstream clients, built from the configuration. Route handlers (and later server-rendered pages) get
// their clients here; nothing else builds an upstream URL.
import "server-only";

import { getGatewayConfig, type GatewayConfig } from "@/lib/config";

import { createItemsClient, type ItemsClient } from "./items";
import { processResilience, resilienceSettingsFrom } from "./policy";
import { createReportsClient, type ReportsClient } from "./reports";

export { CircuitOpenError, isCircuitOpenError, isUpstreamError, UpstreamError } from "./errors";
export type { UpstreamErrorKind } from "./errors";
export { breakerStatus } from "./policy";
export type { BreakerState, BreakerStatus } from "./policy";
export type { ItemsClient } from "./items";
export type { ReportsClient } from "./reports";

export interface Upstreams {
  config: GatewayConfig;
  /** null when area A is not configured. */
  reports: ReportsClient | null;
  /** null when area B is not configured. */
  items: ItemsClient | null;
}

const cache = new WeakMap<GatewayConfig, Upstreams>();

/** The clients of both areas. Waits for the configuration, which in demo mode includes starting the sandbox. */
export async function getUpstreams(): Promise<Upstreams> {
  const config = await getGatewayConfig();
  let upstreams = cache.get(config);
  if (!upstreams) {
    // One Resilience per process (cache, breakers, retry budgets), whichever bundle builds its clients first.
    const resilience = processResilience(resilienceSettingsFrom(config.upstreamPolicy));
    const timeoutMs = config.upstreamTimeoutMs;
    upstreams = {
      config,
      reports: config.reports && createReportsClient(config.reports, { timeoutMs, policy: resilience.for("reports") }),
      items: config.items && createItemsClient(config.items, { timeoutMs, policy: resilience.for("items") }),
    };
    cache.set(config, upstreams);
  }
  return upstreams;
}
