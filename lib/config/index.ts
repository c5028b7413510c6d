// Gatehouse's configuration, read from the environment once and validated (rules in ./env.ts). When neither
// upstream area is configured, the embedded sandbox is started and both areas point at it (demo mode).
import "server-only";

import { installGracefulShutdown, onShutdown } from "@/lib/lifecycle/shutdown";
import { logEvent, registerSecrets } from "@/lib/log";

import { startDemoSandbox } from "./demo";
import { AREA_NAMES, parseEnv, type Area, type ItemsAreaConfig, type ReportsAreaConfig, type UpstreamPolicyConfig } from "./env";

export { AREA_NAMES, ConfigError, parseEnv } from "./env";
export type {
  Area,
  ConfigProblem,
  EnvConfig,
  ItemsAreaConfig,
  ItemsKeyLocation,
  ReportsAreaConfig,
  UpstreamPolicyConfig,
} from "./env";

export interface GatewayConfig {
  /** null: area A is not configured; its routes answer 503 area_not_configured. */
  reports: ReportsAreaConfig | null;
  /** null: area B is not configured. */
  items: ItemsAreaConfig | null;
  upstreamTimeoutMs: number;
  /** Retries, circuit breaker and cache (lib/upstream/policy). */
  upstreamPolicy: UpstreamPolicyConfig;
  /** How long requests in flight may take to finish after SIGTERM. */
  shutdownTimeoutMs: number;
  /** "demo": both areas point at the embedded sandbox, started by Gatehouse itself. */
  mode: "configured" | "demo";
  /** Where the embedded sandbox listens in demo mode. */
  sandboxUrl?: string;
}

// One promise per process, on globalThis because Next loads this module once per bundle (instrumentation,
// each route): all of them must share one configuration and, in demo mode, one sandbox.
const CONFIG_SLOT = Symbol.for("gatehouse.config");
const globalSlots = globalThis as unknown as Record<symbol, Promise<GatewayConfig> | undefined>;

function policyOf(env: ReturnType<typeof parseEnv>) {
  return { upstreamTimeoutMs: env.upstreamTimeoutMs, upstreamPolicy: env.upstreamPolicy, shutdownTimeoutMs: env.shutdownTimeoutMs };
}

async function loadConfig(): Promise<GatewayConfig> {
  const env = parseEnv(process.env);
  if (env.reports || env.items) {
    registerSecrets([env.reports?.apiKey, env.items?.apiKey].filter((k): k is string => k !== undefined));
    return { ...policyOf(env), reports: env.reports, items: env.items, mode: "configured" };
  }
  const demo = await startDemoSandbox(env.sandboxPort, env.sandboxDataDir);
  registerSecrets([demo.reportsKey, demo.itemsKey]);
  // Closed after the requests in flight, so that its last changes are saved to its state file.
  onShutdown("demo sandbox", () => demo.sandbox.close());
  return {
    ...policyOf(env),
    reports: { baseUrl: demo.sandbox.reportsBaseUrl, apiKey: demo.reportsKey },
    items: { baseUrl: demo.sandbox.itemsBaseUrl, apiKey: demo.itemsKey, keyLocation: { kind: "query-and-form" } },
    mode: "demo",
    sandboxUrl: demo.sandbox.url,
  };
}

/**
 * The configuration, read once. Rejects with a ConfigError when the environment is invalid. In demo mode the
 * first call starts the sandbox; instrumentation.ts makes that first call at server start.
 */
export function getGatewayConfig(): Promise<GatewayConfig> {
  let config = globalSlots[CONFIG_SLOT];
  if (!config) {
    config = loadConfig();
    globalSlots[CONFIG_SLOT] = config;
    // A failed start must not be cached as a rejection forever in a long-lived dev server.
    config.catch(() => {
      if (globalSlots[CONFIG_SLOT] === config) globalSlots[CONFIG_SLOT] = undefined;
    });
  }
  return config;
}

/** True when neither area is configured, so Gatehouse runs on its embedded sandbox. Synchronous: starts nothing. */
export function isDemoMode(env: Record<string, string | undefined> = process.env): boolean {
  const parsed = parseEnv(env);
  return parsed.reports === null && parsed.items === null;
}

export function isAreaConfigured(config: GatewayConfig, area: Area): boolean {
  return config[area] !== null;
}

/**
 * Called once at server start: validates the configuration (a bad one stops the start), says how it runs, and
 * takes over SIGTERM/SIGINT for a graceful shutdown (lib/lifecycle).
 */
export async function startGateway(): Promise<GatewayConfig> {
  const config = await getGatewayConfig();
  installGracefulShutdown({ timeoutMs: config.shutdownTimeoutMs });
  if (config.mode === "demo") {
    logEvent("info", `Gatehouse demo mode: no upstream configured, so both areas use the embedded sandbox at ${config.sandboxUrl} with its demo keys. Set REPORTS_API_* and/or ITEMS_API_* to use real upstreams.`, {
      mode: "demo",
      sandbox_url: config.sandboxUrl,
    });
  } else {
    const describe = (area: Area) => (config[area] ? `${AREA_NAMES[area]} at ${config[area].baseUrl}` : `${AREA_NAMES[area]} not configured`);
    logEvent("info", `Gatehouse gateway: ${describe("reports")}; ${describe("items")}.`, {
      mode: "configured",
      reports_base_url: config.reports?.baseUrl ?? null,
      items_base_url: config.items?.baseUrl ?? null,
      upstream_timeout_ms: config.upstreamTimeoutMs,
      upstream_policy: config.upstreamPolicy,
    });
  }
  return config;
}
