// `npm run bench`: what the gateway costs, in figures. autocannon against `next start`, the framework floor and the
// sandbox, all on 127.0.0.1, printed as Markdown tables with the ratios of the same run:
//   b) against the framework floor (./against-floor.ts): GET /api/ping of scripts/framework-floor, a bare Next.js
//      route handler, beside GET /api/health (no session), the signed-in GET /api/reports?per_page=25 with the
//      cache on (the defaults), the same on a portal with REDIS_URL (a throwaway redis-server: limits, cache,
//      breakers and revocations shared as on several instances; this was e), a purchase check (POST
//      /api/purchases/validate, an active sandbox code), the cached list with an API token (tokenList) and with a
//      token that has its own limits (tokenListLimited: its per-minute limit and monthly quota counted), and a
//      helpdesk lookup (POST /api/helpdesk/lookup with a token, a ticket of three codes), and the licence API with its verdict cached (POST /api/licences/validate,
//      and activate again from the same instance; a portal of its own). 20 connections, a warm-up, then 5 rounds
//      of 5 s in turns;
//      for each: the server's CPU time per request and req/s as ratios to the floor's, p99, and the resident
//      memory of each server right after its load;
//   a) GET /api/reports through the gateway, signed in, cache off — against GET /api/health, GET /api/auth/me (a
//      session check and nothing else) and the same request straight to the sandbox; 10 connections, each figure
//      the median of 3 runs of 5 s;
//   c) 100 concurrent identical GETs: how many upstream calls were made;
//   d) a 60 s soak at 50 connections over every GET route: errors, and resident memory at start and end
//      (after a warm-up at the same load; each the median of 10 one-second samples) and its peak;
//   f) the history's queries on SQLite and PostgreSQL at 100,000 results (scripts/bench/history.ts, also alone as
//      `npm run bench:history`).
//
// Options: --build (rebuild the portal even if its build is fresh), --quick (short runs, to try the script itself),
// --only <ids> (b alone, with the floor and the targets whose id starts with one of the comma-separated words:
// e.g. `npm run bench -- --only licence`; a, c, d and f are skipped).
// The portal's build is the tests' (tests/support/build.ts, in NEXT_DIST_DIR, default .next), made when missing
// or stale; the floor's is made when stale.
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";

import autocannon from "autocannon";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb } from "@/lib/db";
import { saveLicencePolicy } from "@/lib/licences/policies";
import { FIXED_PURCHASE_CODES, SANDBOX_KEYS } from "@/lib/sandbox";
import { seedSellers } from "@/lib/sandbox/seed";
import { startOtlpReceiver } from "@/tests/support/otlp-receiver";
import { startTestRedis } from "@/tests/support/redis";

import { startFrameworkFloor } from "../framework-floor";

import {
  cachedListTarget,
  floorTable,
  floorTarget,
  GOALS,
  healthTarget,
  measureAgainstFloor,
  type Target,
} from "./against-floor";
import {
  ensurePortalBuild,
  residentMemoryMb,
  runTsx,
  say,
  sessionHeaders,
  startPortal,
  startSandboxProcess,
  type Portal,
  type SandboxProcess,
} from "./processes";

const { values: options } = parseArgs({
  options: {
    build: { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
/** --only: the b) targets kept beside the floor (by the start of their id); undefined: every one, and a, c, d, f. */
const ONLY = options.only
  ?.split(",")
  .map((word) => word.trim())
  .filter((word) => word !== "");

const FLOOR_PLAN = options.quick
  ? { rounds: 2, seconds: 2, warmupSeconds: 1, connections: 20 }
  : { rounds: 5, seconds: 5, warmupSeconds: 5, connections: 20 };
const RUN_SECONDS = options.quick ? 2 : 5;
const WARMUP_SECONDS = options.quick ? 1 : 5;
const RUNS = 3;
const CONNECTIONS = 10;
const SOAK_SECONDS = options.quick ? 10 : 60;
const SOAK_CONNECTIONS = 50;
const SOAK_WARMUP_SECONDS = options.quick ? 2 : 15;
const COALESCE_REQUESTS = 100;
/** The purchase check is limited per user and address (30 and 120 a minute by default): lifted for the load. */
const PURCHASE_LIMITS_LIFTED = {
  PURCHASE_RATE_LIMIT_PER_USER: "100000",
  PURCHASE_RATE_LIMIT_PER_IP: "100000",
  TOKEN_RATE_LIMIT_PER_MINUTE: "100000",
};

/** A helpdesk ticket as the sidebar apps send it: a thread with three codes, one quoted again in a reply. */
const TICKET_TEXT = [
  `Subject: licence for the theme {${FIXED_PURCHASE_CODES.letters.toUpperCase()}}`,
  `Hi, my code is ${FIXED_PURCHASE_CODES.active}, my colleague's ${FIXED_PURCHASE_CODES.expired}.`,
  `> On Monday you wrote: please send the code (${FIXED_PURCHASE_CODES.active})`,
  "-- \nJo, +44 20 7946 0958",
].join("\n");

/**
 * The licence API's portal: an item's licence policy on (through its store, as the HTTP tests do), the request
 * limits lifted for the load, and one copy activated, so that every measured call answers from the purchase's
 * verdict (kept an hour: "cache warm") and asks the item API nothing. The calls are the copy's: no session.
 */
async function licenceTargets(sandbox: SandboxProcess): Promise<{ portal: Portal; targets: Target[] }> {
  const portal = await startPortal(
    sandbox,
    {
      LICENCE_RATE_LIMIT_PER_CODE: "100000",
      LICENCE_RATE_LIMIT_PER_IP: "100000",
      LICENCE_RATE_LIMIT_PER_ITEM: "100000",
      UPSTREAM_CACHE_ITEMS_TTL_MS: "3600000",
    },
    "licences",
  );
  const code = FIXED_PURCHASE_CODES.active;
  const itemId = seedSellers().main.purchases.get(code)!.item.id;
  const store = await openDb(parseDatabaseUrl(portal.databaseUrl));
  try {
    await saveLicencePolicy(
      store.db,
      itemId,
      { enabled: true, limits: { regular: 2, extended: 5 }, never_count: [], revoked_deactivates: true },
      "bench@gatehouse.test",
    );
  } finally {
    await store.close();
  }
  const body = JSON.stringify({ purchase_code: code, item_id: itemId, instance: { domain: "bench-shop.example" } });
  const headers = { "Content-Type": "application/json" };
  const first = await fetch(`${portal.url}/api/licences/activate`, { method: "POST", headers, body });
  if (first.status !== 200)
    throw new Error(`activating the bench's copy failed: ${first.status} ${await first.text()}`);
  const target = (op: "validate" | "activate", id: string, name: string): Target => ({
    id,
    name,
    url: `${portal.url}/api/licences/${op}`,
    pid: portal.pid,
    method: "POST",
    headers,
    body,
  });
  return {
    portal,
    targets: [
      target("validate", "licenceValidate", "licence validate (cache warm): POST /api/licences/validate"),
      target("activate", "licenceActivate", "licence activate (same instance, warm): POST /api/licences/activate"),
    ],
  };
}

/** A token of the portal's admin holding `scope` (purchases:check, as a helpdesk's; reports:read for a script's list). */
async function adminToken(
  portal: Portal,
  name: string,
  scope: string,
  limits: { rate_limit_per_minute?: number; monthly_quota?: number } = {},
): Promise<string> {
  const res = await fetch(`${portal.url}/api/tokens`, {
    method: "POST",
    headers: { ...sessionHeaders(portal), "Content-Type": "application/json", "X-CSRF": "1" },
    body: JSON.stringify({ name, scopes: [scope], expires_in_days: 7, ...limits }),
  });
  if (res.status !== 201) throw new Error(`making the ${name} token failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { secret: string } }).data.secret;
}

// ---------------------------------------------------------------------------------------------------------
// a) cache off: medians of runs in turns

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

interface UrlTarget {
  name: string;
  url: string;
  headers: Record<string, string>;
}

async function load(target: UrlTarget, seconds: number): Promise<Figures & { failed: number }> {
  const result = await autocannon({
    url: target.url,
    headers: target.headers,
    connections: CONNECTIONS,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Warms each target up, then measures them in turns (so that drift hits all alike); the median of each figure. */
async function compare(targets: UrlTarget[]): Promise<Map<string, Figures>> {
  for (const target of targets) await load(target, WARMUP_SECONDS);
  const runs = new Map<string, (Figures & { failed: number })[]>(targets.map((t) => [t.name, []]));
  for (let run = 1; run <= RUNS; run++) {
    for (const target of targets) {
      const figures = await load(target, RUN_SECONDS);
      say(
        `  run ${run}/${RUNS} ${target.name}: ${figures.rps.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms`,
      );
      runs.get(target.name)!.push(figures);
    }
  }
  const medians = new Map<string, Figures>();
  for (const [name, list] of runs) {
    if (list.some((f) => f.failed > 0))
      throw new Error(`${name}: ${list.map((f) => f.failed).join("/")} failed requests in the runs`);
    medians.set(name, {
      rps: median(list.map((f) => f.rps)),
      p50: median(list.map((f) => f.p50)),
      p99: median(list.map((f) => f.p99)),
    });
  }
  return medians;
}

// ---------------------------------------------------------------------------------------------------------
// c) coalescing, d) soak

async function sandboxControl(
  sandbox: SandboxProcess,
  method: string,
  route: string,
  body?: unknown,
): Promise<Response> {
  const res = await fetch(`${sandbox.url}/__sandbox${route}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sandbox control ${method} ${route}: ${res.status}`);
  return res;
}

async function upstreamCallsTo(sandbox: SandboxProcess, pathname: string): Promise<number> {
  const { requests } = (await (await sandboxControl(sandbox, "GET", "/requests")).json()) as {
    requests: { method: string; path: string }[];
  };
  return requests.filter((r) => r.method === "GET" && r.path === pathname).length;
}

/** 100 identical GETs at once; returns how many reached the upstream. */
async function coalesce(portal: Portal, sandbox: SandboxProcess, pathAndQuery: string): Promise<number> {
  await sandboxControl(sandbox, "DELETE", "/requests");
  const headers = sessionHeaders(portal);
  const answers = await Promise.all(
    Array.from({ length: COALESCE_REQUESTS }, () => fetch(portal.url + pathAndQuery, { headers })),
  );
  const failed = answers.filter((res) => res.status !== 200).length;
  await Promise.all(answers.map((res) => res.arrayBuffer()));
  if (failed > 0) throw new Error(`coalescing: ${failed} of ${COALESCE_REQUESTS} requests failed`);
  return upstreamCallsTo(sandbox, "/seo/api/v1/reports");
}

/** Every GET route of the portal API, several of them with a few different queries or ids. */
async function soakRequests(portal: Portal): Promise<autocannon.Request[]> {
  const headers = sessionHeaders(portal);
  const items = (await (await fetch(`${portal.url}/api/items`, { headers })).json()) as { data: { id: number }[] };
  const itemIds = items.data.slice(0, 3).map((item) => item.id);
  const paths = [
    "/api/reports",
    "/api/reports?page=2",
    "/api/reports?result=good&per_page=25",
    "/api/reports?sort_by=url&sort=asc",
    ...[1, 2, 3, 4, 5].map((id) => `/api/reports/${id}`),
    "/api/projects",
    "/api/projects?sort_by=project&sort=asc",
    "/api/account",
    "/api/items",
    ...itemIds.map((id) => `/api/items/${id}`),
    "/api/health",
    "/api/ready",
  ];
  return paths.map((p) => ({ method: "GET", path: p }));
}

/**
 * The soak. Resident memory is sampled every second: "start" is the median of the first 10 s, "end" the median
 * of the last 10 s, so that one garbage collection at the wrong instant does not decide the figure.
 */
async function soak(
  portal: Portal,
): Promise<{ failed: number; total: number; rssStartMb: number; rssEndMb: number; rssPeakMb: number; rps: number }> {
  const requests = await soakRequests(portal);
  const url = portal.url;
  const headers = sessionHeaders(portal);
  // A warm-up at the same load first: "memory at start" is the server as it runs (routes loaded, heap grown to
  // its working size), so that growth during the soak means memory kept, not memory first used.
  await autocannon({ url, headers, requests, connections: SOAK_CONNECTIONS, duration: SOAK_WARMUP_SECONDS });
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(residentMemoryMb(portal.pid)), 1000);
  const result = await autocannon({ url, headers, requests, connections: SOAK_CONNECTIONS, duration: SOAK_SECONDS });
  clearInterval(sampler);
  const window = Math.min(10, Math.floor(samples.length / 2));
  return {
    failed: result.errors + result.timeouts + result.non2xx,
    total: result.requests.total,
    rssStartMb: median(samples.slice(0, window)),
    rssEndMb: median(samples.slice(-window)),
    rssPeakMb: Math.max(...samples),
    rps: result.requests.average,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Report

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-GB", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (ratio: number) => `${fmt(ratio * 100)}%`;
const verdict = (ok: boolean) => (ok ? "met" : "**missed**");

function machine(): string {
  const model =
    /^model name\s*:\s*(.+)$/m.exec(existsSync("/proc/cpuinfo") ? readFileSync("/proc/cpuinfo", "utf8") : "")?.[1] ??
    cpus()[0]?.model ??
    "unknown CPU";
  return `${availableParallelism()} cores (nproc), ${model.trim()}, Node ${process.version}, ${process.platform}`;
}

/** The 1-minute load average: other processes on the machine take CPU from every figure alike. */
const loadAverage = () => loadavg()[0]!.toFixed(1);

/** A portal with traces on, exporting (OTLP/HTTP, protobuf: the default) to a loopback sink that keeps nothing. */
async function tracedPortal(sandbox: SandboxProcess, cleanups: (() => Promise<void>)[]): Promise<Portal> {
  const sink = await startOtlpReceiver({ keep: false });
  cleanups.push(() => sink.close());
  const portal = await startPortal(sandbox, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }, "traces on");
  cleanups.push(() => portal.stop());
  return portal;
}

/** a, c, d: the cache-off comparison, coalescing and the soak (skipped with --only). */
async function theRest(
  sandbox: SandboxProcess,
  cacheOn: Portal,
  cleanups: (() => Promise<void>)[],
  output: string[],
): Promise<void> {
  // c) coalescing with the cache on, a key nobody asked for yet, the upstream at its own pace
  const coalescedCacheOn = await coalesce(cacheOn, sandbox, "/api/reports?per_page=100&sort=asc");

  // d) soak
  say(`d) soak: ${SOAK_SECONDS} s at ${SOAK_CONNECTIONS} connections over every GET route`);
  const soaked = await soak(cacheOn);
  await cacheOn.stop();

  // a) cache off
  say("a) cache off: GET /api/health, GET /api/auth/me, the gateway, the sandbox direct");
  const cacheOff = await startPortal(
    sandbox,
    { UPSTREAM_CACHE_REPORTS_TTL_MS: "0", UPSTREAM_CACHE_ITEMS_TTL_MS: "0" },
    "cache off",
  );
  cleanups.push(() => cacheOff.stop());
  const a = await compare([
    { name: "health", url: `${cacheOff.url}/api/health`, headers: {} },
    { name: "me", url: `${cacheOff.url}/api/auth/me`, headers: sessionHeaders(cacheOff) },
    { name: "gateway", url: `${cacheOff.url}/api/reports`, headers: sessionHeaders(cacheOff) },
    {
      name: "direct",
      url: `${sandbox.reportsBaseUrl}/api/v1/reports`,
      headers: { Authorization: `Bearer ${SANDBOX_KEYS.reports}`, Accept: "application/json" },
    },
  ]);
  const cacheOffRss = residentMemoryMb(cacheOff.pid);

  // c) coalescing, on the cache-off portal: single flight alone. The upstream is slowed to 2 s so that all
  // 100 requests (which take a while to pass the session check on 2 cores) arrive while the first call runs.
  await sandboxControl(sandbox, "POST", "/faults", {
    method: "GET",
    path: "/seo/api/v1/reports",
    kind: "latency",
    latencyMs: 2000,
  });
  const coalescedCacheOff = await coalesce(cacheOff, sandbox, "/api/reports?per_page=50&sort=asc");
  await sandboxControl(sandbox, "DELETE", "/faults");
  await cacheOff.stop();

  const figures = (f: Figures) => `${fmt(f.rps)} req/s, p50 ${fmt(f.p50)} ms, p99 ${fmt(f.p99)} ms`;
  const offRatio = a.get("gateway")!.rps / a.get("health")!.rps;
  const growth = soaked.rssEndMb / soaked.rssStartMb - 1;
  output.push(
    "",
    `a) Cache off: ${CONNECTIONS} connections, each figure the median of ${RUNS} runs of ${RUN_SECONDS} s in turns (after a ${WARMUP_SECONDS} s warm-up); the portal's resident memory right after: ${fmt(cacheOffRss)} MB.`,
    "",
    "| GET /api/health | GET /api/auth/me | gateway: GET /api/reports | sandbox direct | gateway ÷ health | gateway ÷ auth/me | goal (gateway ÷ health) |",
    "|---|---|---|---|---|---|---|",
    `| ${figures(a.get("health")!)} | ${figures(a.get("me")!)} | ${figures(a.get("gateway")!)} | ${figures(a.get("direct")!)} | ${pct(offRatio)} | ${pct(a.get("gateway")!.rps / a.get("me")!.rps)} | ≥ 80%: ${verdict(offRatio >= 0.8)} |`,
    "",
    "| measure | result | goal |",
    "|---|---|---|",
    `| c) ${COALESCE_REQUESTS} concurrent identical GET /api/reports, cache on | ${coalescedCacheOn} upstream call(s) | exactly 1: ${verdict(coalescedCacheOn === 1)} |`,
    `| c) the same, cache off (single flight alone; upstream slowed to 2 s) | ${coalescedCacheOff} upstream call(s) | exactly 1: ${verdict(coalescedCacheOff === 1)} |`,
    `| d) soak, ${SOAK_SECONDS} s at ${SOAK_CONNECTIONS} connections, every GET route, cache on (after ${SOAK_WARMUP_SECONDS} s of warm-up) | ${fmt(soaked.total)} requests (${fmt(soaked.rps)} req/s), ${soaked.failed} errors; RSS ${fmt(soaked.rssStartMb)} → ${fmt(soaked.rssEndMb)} MB (${growth >= 0 ? "+" : "−"}${pct(Math.abs(growth))}; peak ${fmt(soaked.rssPeakMb)} MB) | no errors: ${verdict(soaked.failed === 0)}; < 10% growth: ${verdict(growth < 0.1)}; under 300 MB: ${verdict(soaked.rssPeakMb < 300)} |`,
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = loadAverage();
  ensurePortalBuild(options.build);
  const sandbox = await startSandboxProcess();
  const cleanups: (() => Promise<void>)[] = [() => sandbox.stop()];
  const output: string[] = [];
  try {
    // b) against the framework floor: the floor and three portals (cache on; on Redis; purchase checks), all up at
    // once. The purchase checks have a server of their own: the garbage and the writes of 7 ms requests would
    // otherwise be collected and flushed in the next route's window, and charged to it.
    say(
      `b) against the framework floor: ${FLOOR_PLAN.rounds} rounds of ${FLOOR_PLAN.seconds} s in turns at ${FLOOR_PLAN.connections} connections`,
    );
    const floor = await startFrameworkFloor((line) => say(`  ${line}`));
    cleanups.push(() => floor.stop());
    const cacheOn = await startPortal(sandbox, {}, "cache on");
    cleanups.push(() => cacheOn.stop());
    const redis = await startTestRedis();
    cleanups.push(() => redis.stop());
    const withRedis = await startPortal(sandbox, { REDIS_URL: redis.url }, "with Redis");
    cleanups.push(() => withRedis.stop());
    const checks = await startPortal(sandbox, PURCHASE_LIMITS_LIFTED, "purchase checks");
    cleanups.push(() => checks.stop());
    const purchase: Target = {
      id: "purchase",
      name: "POST /api/purchases/validate (signed in, an active code)",
      url: `${checks.url}/api/purchases/validate`,
      pid: checks.pid,
      method: "POST",
      headers: { ...sessionHeaders(checks), "Content-Type": "application/json", "X-CSRF": "1" },
      body: JSON.stringify({ purchase_code: FIXED_PURCHASE_CODES.active }),
    };
    // The lookup shares the item service's answers for the cache's lifetime (60 s): in a run, its three codes
    // are asked about once, and what is measured is finding them, the limits and the history's writes.
    const lookup: Target = {
      id: "lookup",
      name: "POST /api/helpdesk/lookup (a token, a ticket of 3 codes)",
      url: `${checks.url}/api/helpdesk/lookup`,
      pid: checks.pid,
      method: "POST",
      headers: {
        Authorization: `Bearer ${await adminToken(checks, "bench helpdesk", "purchases:check")}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ text: TICKET_TEXT, ticket: { system: "zendesk", id: "4211" } }),
    };
    // The cached list as a script asks it, with a token: the token's checks (its row, its owner, its limits, its
    // usage) on top of the list. On the portal whose token limit is lifted, so that no answer is a 429.
    const tokenList: Target = {
      ...cachedListTarget(checks, "tokenList", ", with an API token"),
      name: "GET /api/reports?per_page=25 (an API token, cached)",
      headers: { Authorization: `Bearer ${await adminToken(checks, "bench script", "reports:read")}` },
    };
    // The same with the token's own limits (a per-minute limit and a monthly quota it never reaches): what
    // counting them costs on the request path.
    const tokenListLimited: Target = {
      ...tokenList,
      id: "tokenListLimited",
      name: "GET /api/reports?per_page=25 (an API token with its own limits, cached)",
      headers: {
        Authorization: `Bearer ${await adminToken(checks, "bench limited script", "reports:read", {
          rate_limit_per_minute: 100_000,
          monthly_quota: 1_000_000_000,
        })}`,
      },
    };
    const licences = await licenceTargets(sandbox);
    cleanups.push(() => licences.portal.stop());
    // The cached list again with traces on (docs/operations.md#traces), sent to a local OTLP sink that keeps nothing:
    // its ratio beside cachedList's is what tracing costs.
    const wantTraced = ONLY === undefined || ONLY.some((word) => "cachedListTraced".startsWith(word));
    const traced = wantTraced ? await tracedPortal(sandbox, cleanups) : null;
    const targets = [
      healthTarget(cacheOn),
      cachedListTarget(cacheOn),
      ...(traced ? [cachedListTarget(traced, "cachedListTraced", ", traces on, sent to a local sink")] : []),
      cachedListTarget(withRedis, "cachedListRedis", ", on Redis"),
      tokenList,
      tokenListLimited,
      purchase,
      lookup,
      ...licences.targets,
    ].filter((target) => ONLY === undefined || ONLY.some((word) => target.id.startsWith(word)));
    if (targets.length === 0) throw new Error(`--only ${options.only}: no target's id starts with that`);
    const b = await measureAgainstFloor([floorTarget(floor), ...targets], FLOOR_PLAN);
    const servers = {
      "framework floor": floor.pid,
      "portal (health, list)": cacheOn.pid,
      "portal on Redis": withRedis.pid,
      "portal (purchase checks)": checks.pid,
      "portal (licences)": licences.portal.pid,
      ...(traced ? { "portal (traces on)": traced.pid } : {}),
    };
    const rss = Object.entries(servers).map(([name, pid]) => `${name} ${fmt(residentMemoryMb(pid))} MB`);
    await licences.portal.stop();
    await checks.stop();
    await withRedis.stop();
    await redis.stop();
    await floor.stop();
    output.push(
      `b) Against the framework floor: ${FLOOR_PLAN.connections} connections, ${FLOOR_PLAN.rounds} rounds of ${FLOOR_PLAN.seconds} s in turns after a ${FLOOR_PLAN.warmupSeconds} s warm-up each. CPU per request: the server process's CPU time (user + system) in a round ÷ the requests it completed; each figure the median of the rounds.`,
      "",
      floorTable(b, GOALS),
      "",
      `Resident memory right after the load: ${rss.join(", ")}.`,
    );
    if (ONLY === undefined) await theRest(sandbox, cacheOn, cleanups, output);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }

  const date = new Date().toISOString().slice(0, 10);
  console.log(`\nGatehouse benchmark, ${date}, ${machine()}${options.quick ? " — QUICK RUN, not for the docs" : ""}`);
  console.log(`All processes on 127.0.0.1. Load average (1 min) at start ${loadAtStart}, at end ${loadAverage()}.\n`);
  console.log(output.join("\n"));
  // f) The history's queries on both stores: the dashboard's 365-day trend over 100,000 results, its own table.
  if (ONLY !== undefined) return;
  console.log("\nf) The history's queries (scripts/bench/history.ts):");
  if (
    runTsx(["--conditions=react-server", "scripts/bench/history.ts", ...(options.quick ? ["--runs", "5"] : [])]) !== 0
  )
    process.exitCode = 1;
  say(`\nDone in ${Math.round((Date.now() - started) / 1000)} s.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
