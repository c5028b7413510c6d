// Shared by the resilience tests: clients of both areas wired to one Resilience (the policies under test) and
// pointed at the real sandbox over HTTP; the sandbox's request log counts what reached the upstream.
import type { LoggedRequest } from "@/lib/sandbox";
import { UpstreamError } from "@/lib/upstream/errors";
import { createItemsClient } from "@/lib/upstream/items";
import { DEFAULT_RESILIENCE, Resilience, type ResilienceSettings } from "@/lib/upstream/policy";
import { createReportsClient } from "@/lib/upstream/reports";

import { CANARY } from "./canary";
import type { TestSandbox } from "./sandbox";

export interface SettingsOverrides {
  retries?: number;
  budget?: Partial<ResilienceSettings["retryBudget"]>;
  breaker?: Partial<ResilienceSettings["breaker"]>;
  ttlMs?: Partial<ResilienceSettings["cache"]["ttlMs"]>;
  cacheLimits?: { maxEntries?: number; maxBytes?: number };
}

/** The production defaults, changed only where a test says so. */
export function settings(overrides: SettingsOverrides = {}): ResilienceSettings {
  return {
    retry: { ...DEFAULT_RESILIENCE.retry, maxRetries: overrides.retries ?? DEFAULT_RESILIENCE.retry.maxRetries },
    retryBudget: { ...DEFAULT_RESILIENCE.retryBudget, ...overrides.budget },
    breaker: { ...DEFAULT_RESILIENCE.breaker, ...overrides.breaker },
    cache: {
      ...DEFAULT_RESILIENCE.cache,
      ...overrides.cacheLimits,
      ttlMs: { ...DEFAULT_RESILIENCE.cache.ttlMs, ...overrides.ttlMs },
    },
  };
}

/** A clock the test moves by hand (breaker and cache expiry); the timeout budget keeps real time. */
export class ManualClock {
  private current = 1_000_000;
  now = () => this.current;
  random = () => 0.5;
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface Harness {
  resilience: Resilience;
  reports: ReturnType<typeof createReportsClient>;
  items: ReturnType<typeof createItemsClient>;
}

export function harness(
  sandbox: TestSandbox,
  options: {
    settings?: ResilienceSettings;
    clock?: ManualClock;
    timeoutMs?: number;
    apiKeys?: { reports?: string; items?: string };
  } = {},
): Harness {
  const resilience = new Resilience(
    options.settings ?? settings(),
    options.clock ?? { now: Date.now, random: Math.random },
  );
  return withClients(sandbox, resilience, options);
}

/** More clients on the same Resilience (another key, another timeout). */
export function withClients(
  sandbox: TestSandbox,
  resilience: Resilience,
  options: { timeoutMs?: number; apiKeys?: { reports?: string; items?: string } } = {},
): Harness {
  const timeoutMs = options.timeoutMs ?? 3000;
  return {
    resilience,
    reports: createReportsClient(
      { baseUrl: sandbox.reportsBaseUrl, apiKey: options.apiKeys?.reports ?? CANARY.reports },
      { timeoutMs, policy: resilience.for("reports") },
    ),
    items: createItemsClient(
      {
        baseUrl: sandbox.itemsBaseUrl,
        apiKey: options.apiKeys?.items ?? CANARY.items,
        keyLocation: { kind: "query-and-form" },
      },
      { timeoutMs, policy: resilience.for("items") },
    ),
  };
}

/** How many requests the sandbox received, optionally only those with this method and path. */
export async function upstreamCalls(sandbox: TestSandbox, method?: string, path?: string): Promise<LoggedRequest[]> {
  const all = await sandbox.requests();
  return all.filter((r) => (method === undefined || r.method === method) && (path === undefined || r.path === path));
}

export async function upstreamErrorOf(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error("expected an UpstreamError");
}

export const REPORTS = "/seo/api/v1/reports";
export const PROJECTS = "/seo/api/v1/projects";
export const reportPath = (id: number) => `${REPORTS}/${id}`;
export const ACCOUNT = "/market/api/account/details";
export const ITEMS = "/market/api/items/all";
export const ITEM = "/market/api/items/item";
export const VALIDATION = "/market/api/purchases/validation";

/** Waits until the sandbox has received `count` requests of this method and path (at most 10 s). */
export async function waitForUpstreamCalls(
  sandbox: TestSandbox,
  method: string,
  path: string,
  count = 1,
): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await upstreamCalls(sandbox, method, path)).length < count) {
    if (Date.now() > deadline) throw new Error(`the upstream never received ${count} × ${method} ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
