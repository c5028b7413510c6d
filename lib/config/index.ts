// Gatehouse's configuration, one type with a group per room, read from the environment once and validated (the
// upstream and process rules in ./env.ts, the server's rooms in ./server.ts; the whole start-up check in
// ./check.ts). In demo mode (GATEHOUSE_DEMO=1, set by `npm run demo`) the embedded sandbox is started and both
// areas point at it; a configured start needs at least one area.
import "server-only";

import path from "node:path";

import { installGracefulShutdown, onShutdown } from "@/lib/lifecycle/shutdown";
import { logEvent, registerSecrets, setLogInstance } from "@/lib/log";

import { demoKek, startDemoSandbox, type DemoKeys } from "./demo";
import { AREA_WORDS, type Area } from "@/lib/contract/areas";
import { processPromise } from "@/lib/process-wide";

import { ConfigError, NO_UPSTREAM, parseEnv, type EnvConfig } from "./env";
import { demoDataDir, isDemoMode } from "./mode";
import { loadServerConfig, type ServerConfig } from "./server";

export { isDemoMode } from "./mode";

/**
 * What the server runs with: the server's rooms (./server.ts) and the environment's upstream and process settings
 * (./env.ts) as the running process resolved them — all but what only `npm start` and the demo's launcher read.
 */
export interface Config
  extends ServerConfig, Omit<EnvConfig, "httpServer" | "sandboxPort" | "demoDataDir" | "instanceId"> {
  /** This instance's name in log lines and metrics: INSTANCE_ID, else hostname:pid. */
  instanceId: string;
  /** "demo": both areas point at the embedded sandbox, started by Gatehouse itself. */
  mode: "configured" | "demo";
  /** Where the embedded sandbox listens in demo mode. */
  sandboxUrl?: string;
  /** Demo mode: the keys its store starts with (kept in the portal, sealed; lib/upstream/keys/startup.ts). */
  demoKeys?: DemoKeys;
}

function settingsOf(env: ReturnType<typeof parseEnv>, mode: Config["mode"]) {
  if (env.metricsToken) registerSecrets([env.metricsToken]);
  const redisUrl = mode === "demo" ? null : env.redisUrl;
  if (redisUrl) registerSecrets(redisSecrets(redisUrl));
  const server = loadServerConfig({ demoMode: mode === "demo" });
  // The audit collector's token and URL (which may carry a key in its query) never reach a log line.
  const { http } = server.auditStreams;
  if (http) registerSecrets([http.url, ...(http.token ? [http.token] : [])]);
  return {
    ...server,
    shutdownTimeoutMs: env.shutdownTimeoutMs,
    metricsToken: env.metricsToken,
    redisUrl,
    instanceId: setLogInstance(env.instanceId),
  };
}

/** The URL and its password: a driver's error message may quote either. */
function redisSecrets(url: string): string[] {
  const password = decodeURIComponent(new URL(url).password);
  return [url, password].filter((value) => value !== "");
}

async function loadConfig(): Promise<Config> {
  if (!isDemoMode()) {
    const env = parseEnv(process.env);
    const { reports, items } = env.upstream;
    if (!reports && !items) throw new ConfigError([{ variable: "", problem: NO_UPSTREAM }]);
    registerSecrets([reports?.apiKey, items?.apiKey].filter((k): k is string => typeof k === "string"));
    return { ...settingsOf(env, "configured"), upstream: env.upstream, mode: "configured" };
  }
  // Demo mode reads neither area's settings: both point at the sandbox, whose state lives in the demo's folder.
  const env = parseEnv(withoutAreas(process.env));
  const demo = await startDemoSandbox(env.sandboxPort, path.join(demoDataDir(), "sandbox"));
  registerSecrets(Object.values(demo.keys.first));
  // Closed after the requests in flight, so that its last changes are saved to its state file.
  onShutdown("demo sandbox", () => demo.sandbox.close());
  const settings = settingsOf(env, "demo");
  return {
    ...settings,
    // Its receiver, on loopback, is the one private address a demo's webhook may go to (lib/webhooks/target.ts).
    webhooks: { ...settings.webhooks, demoReceiverUrl: demo.sandbox.receiverUrl },
    upstream: {
      ...env.upstream,
      // No key from the environment: the demo's keys are kept in the portal, so its admin can rotate them.
      reports: { baseUrl: demo.sandbox.reportsBaseUrl, apiKey: null },
      items: { baseUrl: demo.sandbox.itemsBaseUrl, apiKey: null, keyLocation: { kind: "query-and-form" } },
      keyEncryption: { current: demoKek(demoDataDir()), previous: null },
    },
    mode: "demo",
    sandboxUrl: demo.sandbox.url,
    demoKeys: demo.keys,
  };
}

/**
 * The configuration, read once per process (every bundle shares it and, in demo mode, one sandbox); read again
 * after a failure. Rejects with a ConfigError when the environment is invalid. In demo mode the first call starts
 * the sandbox; instrumentation.ts makes that first call at server start.
 */
export function getConfig(): Promise<Config> {
  return processPromise("config", loadConfig);
}

const AREA_SETTINGS = [
  "REPORTS_API_BASE_URL",
  "REPORTS_API_KEY",
  "ITEMS_API_BASE_URL",
  "ITEMS_API_KEY",
  "ITEMS_API_KEY_LOCATION",
  "GATEHOUSE_KEK",
  "GATEHOUSE_KEK_PREVIOUS",
];

function withoutAreas(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !AREA_SETTINGS.includes(name)));
}

/**
 * Called once at server start: validates the configuration (a bad one stops the start), says how it runs, and
 * takes over SIGTERM/SIGINT for a graceful shutdown (lib/lifecycle).
 */
export async function startGateway(): Promise<Config> {
  const config = await getConfig();
  installGracefulShutdown({ timeoutMs: config.shutdownTimeoutMs });
  if (config.mode === "demo") {
    logEvent(
      "info",
      `Gatehouse demo mode: both areas use the embedded sandbox at ${config.sandboxUrl} with its demo keys (kept in the portal: rotate them on the Upstream connections page); everything the demo writes is in ${demoDataDir()}. For real upstreams, configure them and run npm start.`,
      {
        mode: "demo",
        sandbox_url: config.sandboxUrl,
        data_dir: demoDataDir(),
      },
    );
  } else {
    const describe = (area: Area) =>
      config.upstream[area]
        ? `${AREA_WORDS[area].api} at ${config.upstream[area].baseUrl}`
        : `${AREA_WORDS[area].api} not configured`;
    logEvent("info", `Gatehouse gateway: ${describe("reports")}; ${describe("items")}.`, {
      mode: "configured",
      reports_base_url: config.upstream.reports?.baseUrl ?? null,
      items_base_url: config.upstream.items?.baseUrl ?? null,
      upstream_timeout_ms: config.upstream.timeoutMs,
      upstream_policy: config.upstream.policy,
      shared_state: config.redisUrl ? "redis" : "this process",
    });
  }
  return config;
}
