// `npm run bench`: what the gateway costs, in figures. autocannon against `next start` and the sandbox, all on
// 127.0.0.1, each figure the median of 3 runs, printed as one Markdown table with the ratios of the same run:
//   a) GET /api/reports through the gateway, signed in, cache off — against the same request straight to the
//      sandbox, and against the framework's floor;
//   b) the same with the cache on;
//   c) 100 concurrent identical GETs: how many upstream calls were made;
//   d) a 60 s soak at 50 connections over every GET route: errors, and resident memory at start and end
//      (after a warm-up at the same load; each the median of 10 one-second samples);
//   e) b) again with REDIS_URL (a throwaway redis-server): the cost of sharing state between instances;
//   f) the history's queries on SQLite and PostgreSQL at 100,000 results (scripts/bench/history.ts, also alone as
//      `npm run bench:history`).
//
// The floor is /api/health, a route that already exists and calls no upstream. It is not a bare handler: it
// runs through the same proxy and route wrapper (request id, log line, security headers) as every API route.
// So the ratio measures exactly what GET /api/reports adds to any Gatehouse route: the session check, the
// upstream call and the policies. A bare `{"ok":true}` route would exist only for the benchmark; we chose not to
// add one. To tell the session check apart from the rest, GET /api/auth/me (a session check and nothing else)
// is measured too, as the "signed-in floor".
//
// Options: --build (rebuild even if a build exists), --quick (short runs, to try the script itself).
// Uses NEXT_DIST_DIR (default .next); builds when there is none or a source file is newer.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

import autocannon from "autocannon";

import { buildReason } from "@/lib/cli/build-check";
import { SANDBOX_KEYS } from "@/lib/sandbox";
import { startTestRedis } from "@/tests/support/redis";

const { values: options } = parseArgs({ options: { build: { type: "boolean", default: false }, quick: { type: "boolean", default: false } } });

const RUN_SECONDS = options.quick ? 2 : 5;
const WARMUP_SECONDS = options.quick ? 1 : 5;
const RUNS = 3;
const CONNECTIONS = 10;
const SOAK_SECONDS = options.quick ? 10 : 60;
const SOAK_CONNECTIONS = 50;
const SOAK_WARMUP_SECONDS = options.quick ? 2 : 15;
const COALESCE_REQUESTS = 100;

const ROOT = path.resolve(__dirname, "..", "..");
const DIST_DIR = process.env.NEXT_DIST_DIR || ".next";
const NEXT_BIN = path.join(ROOT, "node_modules", ".bin", "next");
const TSX_BIN = path.join(ROOT, "node_modules", ".bin", "tsx");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (text: string) => process.stderr.write(`${text}\n`);

// ---------------------------------------------------------------------------------------------------------
// Processes

interface SandboxProcess {
  url: string;
  reportsBaseUrl: string;
  itemsBaseUrl: string;
  stop(): Promise<void>;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function startSandboxProcess(): Promise<SandboxProcess> {
  const child = spawn(TSX_BIN, [path.join(ROOT, "scripts", "bench", "sandbox-server.ts")], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const firstLine = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf("\n");
      if (end >= 0) resolve(buffered.slice(0, end));
    });
    child.once("exit", (code) => reject(new Error(`the sandbox exited with ${code} before it listened`)));
  });
  child.stdout?.resume();
  const info = JSON.parse(firstLine) as { url: string; reportsBaseUrl: string; itemsBaseUrl: string };
  return { ...info, stop: () => stopChild(child) };
}

interface Portal {
  url: string;
  pid: number;
  /** The session cookie of the signed-in admin; undefined when this build has no accounts yet. */
  cookie: string | undefined;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function startPortal(sandbox: SandboxProcess, extraEnv: Record<string, string>, label: string): Promise<Portal> {
  const port = await freePort();
  const storeDir = await mkdtemp(path.join(tmpdir(), "gatehouse-bench-store-"));
  const admin = { email: "bench@gatehouse.test", password: randomBytes(18).toString("base64url") };
  // The portal's log lines go to a file: reading them here would cost the load generator CPU.
  const logFile = path.join(storeDir, "portal.log");
  const logFd = openSync(logFile, "w");
  const child = spawn(NEXT_BIN, ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    stdio: ["ignore", logFd, logFd],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      REPORTS_API_BASE_URL: sandbox.reportsBaseUrl,
      REPORTS_API_KEY: SANDBOX_KEYS.reports,
      ITEMS_API_BASE_URL: sandbox.itemsBaseUrl,
      ITEMS_API_KEY: SANDBOX_KEYS.items,
      SESSION_SECRET: randomBytes(36).toString("base64url"),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      DATABASE_URL: path.join(storeDir, "gatehouse.db"),
      ...extraEnv,
    },
  });
  closeSync(logFd);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    await rm(storeDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start (${label}) exited with ${child.exitCode}:\n${readFileSync(logFile, "utf8")}`);
    const up = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start (${label}) was not ready within 60 s`);
    }
    await sleep(100);
  }
  const cookie = await signIn(url, admin);
  return { url, pid: child.pid!, cookie, stop };
}

/** Signs the admin in; a build from before the accounts work has no login route and needs no session. */
async function signIn(url: string, credentials: { email: string; password: string }): Promise<string | undefined> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF": "1" },
    body: JSON.stringify(credentials),
  });
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`signing in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie()[0]?.split(";", 1)[0];
  if (!cookie) throw new Error("signing in set no cookie");
  return cookie;
}

function residentMemoryMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

// ---------------------------------------------------------------------------------------------------------
// Measuring

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
}

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
}

async function load(target: Target, seconds: number, connections = CONNECTIONS): Promise<Figures> {
  const result = await autocannon({ url: target.url, headers: target.headers, connections, duration: seconds });
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
async function compare(targets: Target[]): Promise<Map<string, Figures>> {
  for (const target of targets) await load(target, WARMUP_SECONDS);
  const runs = new Map<string, Figures[]>(targets.map((t) => [t.name, []]));
  for (let run = 1; run <= RUNS; run++) {
    for (const target of targets) {
      const figures = await load(target, RUN_SECONDS);
      say(`  run ${run}/${RUNS} ${target.name}: ${figures.rps.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms`);
      runs.get(target.name)!.push(figures);
    }
  }
  const medians = new Map<string, Figures>();
  for (const [name, list] of runs) {
    if (list.some((f) => f.failed > 0)) throw new Error(`${name}: ${list.map((f) => f.failed).join("/")} failed requests in the runs`);
    medians.set(name, {
      rps: median(list.map((f) => f.rps)),
      p50: median(list.map((f) => f.p50)),
      p99: median(list.map((f) => f.p99)),
      failed: 0,
    });
  }
  return medians;
}

async function sandboxControl(sandbox: SandboxProcess, method: string, route: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${sandbox.url}/__sandbox${route}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sandbox control ${method} ${route}: ${res.status}`);
  return res;
}

async function upstreamCallsTo(sandbox: SandboxProcess, pathname: string): Promise<number> {
  const { requests } = (await (await sandboxControl(sandbox, "GET", "/requests")).json()) as { requests: { method: string; path: string }[] };
  return requests.filter((r) => r.method === "GET" && r.path === pathname).length;
}

/** 100 identical GETs at once; returns how many reached the upstream. */
async function coalesce(portal: Portal, sandbox: SandboxProcess, pathAndQuery: string): Promise<number> {
  await sandboxControl(sandbox, "DELETE", "/requests");
  const headers = sessionHeaders(portal);
  const answers = await Promise.all(Array.from({ length: COALESCE_REQUESTS }, () => fetch(portal.url + pathAndQuery, { headers })));
  const failed = answers.filter((res) => res.status !== 200).length;
  await Promise.all(answers.map((res) => res.arrayBuffer()));
  if (failed > 0) throw new Error(`coalescing: ${failed} of ${COALESCE_REQUESTS} requests failed`);
  return upstreamCallsTo(sandbox, "/seo/api/v1/reports");
}

/** Every GET route of the portal API, several of them with a few different queries or ids. */
/** The session cookie as request headers (none for a build without sign-in). */
const sessionHeaders = (portal: Portal): Record<string, string> => (portal.cookie ? { Cookie: portal.cookie } : {});

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
async function soak(portal: Portal): Promise<{ failed: number; total: number; rssStartMb: number; rssEndMb: number; rssPeakMb: number; rps: number }> {
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

const fmt = (n: number, digits = 0) => n.toLocaleString("en-GB", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (ratio: number) => `${fmt(ratio * 100)}%`;

function machine(): string {
  const model = /^model name\s*:\s*(.+)$/m.exec(existsSync("/proc/cpuinfo") ? readFileSync("/proc/cpuinfo", "utf8") : "")?.[1] ?? cpus()[0]?.model ?? "unknown CPU";
  return `${availableParallelism()} cores (nproc), ${model.trim()}, Node ${process.version}, ${process.platform}`;
}

function ensureBuild(): void {
  const reason = options.build ? "asked with --build" : buildReason();
  if (!reason) {
    say(`Using the build in ${DIST_DIR}: it is newer than every source file.`);
    return;
  }
  say(`Building into ${DIST_DIR} (${reason})…`);
  const result = spawnSync(NEXT_BIN, ["build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error(`next build failed (${result.status ?? result.signal})`);
}

/** The 1-minute load average: other processes on the machine take CPU from every figure alike. */
const loadAverage = () => loadavg()[0]!.toFixed(1);

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = loadAverage();
  ensureBuild();
  const sandbox = await startSandboxProcess();
  const cleanups: (() => Promise<void>)[] = [() => sandbox.stop()];
  const rows: string[] = [];
  const notes: string[] = [];
  try {
    const direct: Target = {
      name: "sandbox direct",
      url: `${sandbox.reportsBaseUrl}/api/v1/reports`,
      headers: { Authorization: `Bearer ${SANDBOX_KEYS.reports}`, Accept: "application/json" },
    };
    const targetsOf = (portal: Portal): Target[] => [
      { name: "floor", url: `${portal.url}/api/health`, headers: {} },
      ...(portal.cookie ? [{ name: "signed-in floor", url: `${portal.url}/api/auth/me`, headers: sessionHeaders(portal) }] : []),
      { name: "gateway", url: `${portal.url}/api/reports`, headers: sessionHeaders(portal) },
    ];

    // a) cache off
    say("a) cache off: floor, gateway, sandbox direct");
    const cacheOff = await startPortal(sandbox, { UPSTREAM_CACHE_REPORTS_TTL_MS: "0", UPSTREAM_CACHE_ITEMS_TTL_MS: "0" }, "cache off");
    cleanups.push(() => cacheOff.stop());
    if (!cacheOff.cookie) notes.push("This build has no sign-in yet: the gateway was measured without a session.");
    const a = await compare([...targetsOf(cacheOff), direct]);

    // c) coalescing, on the cache-off portal: single flight alone. The upstream is slowed to 2 s so that all
    // 100 requests (which take a while to pass the session check on 2 cores) arrive while the first call runs.
    await sandboxControl(sandbox, "POST", "/faults", { method: "GET", path: "/seo/api/v1/reports", kind: "latency", latencyMs: 2000 });
    const coalescedCacheOff = await coalesce(cacheOff, sandbox, "/api/reports?per_page=50&sort=asc");
    await sandboxControl(sandbox, "DELETE", "/faults");
    await cacheOff.stop();

    // b) cache on (the defaults)
    say("b) cache on: floor, gateway");
    const cacheOn = await startPortal(sandbox, {}, "cache on");
    cleanups.push(() => cacheOn.stop());
    const b = await compare(targetsOf(cacheOn));

    // c) coalescing with the cache on, a key nobody asked for yet, the upstream at its own pace
    const coalescedCacheOn = await coalesce(cacheOn, sandbox, "/api/reports?per_page=100&sort=asc");

    // d) soak
    say(`d) soak: ${SOAK_SECONDS} s at ${SOAK_CONNECTIONS} connections over every GET route`);
    const soaked = await soak(cacheOn);
    await cacheOn.stop();

    // e) cache on, with Redis: limits, cache, breakers and session revocations shared as on several instances
    say("e) cache on, with REDIS_URL: floor, gateway");
    const redis = await startTestRedis();
    cleanups.push(() => redis.stop());
    const withRedis = await startPortal(sandbox, { REDIS_URL: redis.url }, "with Redis");
    cleanups.push(() => withRedis.stop());
    const e = await compare(targetsOf(withRedis));
    await withRedis.stop();

    const figures = (f: Figures | undefined) => (f ? `${fmt(f.rps)} req/s, p50 ${fmt(f.p50)} ms, p99 ${fmt(f.p99)} ms` : "—");
    const ratio = (of: Figures | undefined, to: Figures | undefined) => (of && to ? pct(of.rps / to.rps) : "—");
    const offRatio = a.get("gateway")!.rps / a.get("floor")!.rps;
    const onRatio = b.get("gateway")!.rps / b.get("floor")!.rps;
    const redisRatio = e.get("gateway")!.rps / e.get("floor")!.rps;
    const growth = soaked.rssEndMb / soaked.rssStartMb - 1;
    const verdict = (ok: boolean) => (ok ? "met" : "**missed**");
    const row = (label: string, m: Map<string, Figures>, goal: string) =>
      `| ${label} | ${figures(m.get("floor"))} | ${figures(m.get("signed-in floor"))} | ${figures(m.get("gateway"))} | ${figures(m.get("sandbox direct"))} | ${ratio(m.get("gateway"), m.get("floor"))} | ${ratio(m.get("gateway"), m.get("signed-in floor"))} | ${goal} |`;

    rows.push(
      "| measure | floor: GET /api/health | signed-in floor: GET /api/auth/me | gateway: GET /api/reports | sandbox direct | gateway ÷ floor | gateway ÷ signed-in floor | goal (gateway ÷ floor) |",
      "|---|---|---|---|---|---|---|---|",
      row(`a) cache off, ${CONNECTIONS} connections`, a, `≥ 80%: ${verdict(offRatio >= 0.8)}`),
      row(`b) cache on, ${CONNECTIONS} connections`, b, `≥ 95%: ${verdict(onRatio >= 0.95)}`),
      row(`e) cache on, with REDIS_URL, ${CONNECTIONS} connections`, e, `≥ 85%: ${verdict(redisRatio >= 0.85)}`),
      "",
      "| measure | result | goal |",
      "|---|---|---|",
      `| c) ${COALESCE_REQUESTS} concurrent identical GET /api/reports, cache on | ${coalescedCacheOn} upstream call(s) | exactly 1: ${verdict(coalescedCacheOn === 1)} |`,
      `| c) the same, cache off (single flight alone; upstream slowed to 2 s) | ${coalescedCacheOff} upstream call(s) | exactly 1: ${verdict(coalescedCacheOff === 1)} |`,
      `| d) soak, ${SOAK_SECONDS} s at ${SOAK_CONNECTIONS} connections, every GET route, cache on (after ${SOAK_WARMUP_SECONDS} s of warm-up) | ${fmt(soaked.total)} requests (${fmt(soaked.rps)} req/s), ${soaked.failed} errors; RSS ${fmt(soaked.rssStartMb)} → ${fmt(soaked.rssEndMb)} MB (${growth >= 0 ? "+" : "−"}${pct(Math.abs(growth))}; peak ${fmt(soaked.rssPeakMb)} MB) | no errors: ${verdict(soaked.failed === 0)}; < 10% growth: ${verdict(growth < 0.1)} |`,
    );
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }

  const date = new Date().toISOString().slice(0, 10);
  console.log(`\nGatehouse benchmark, ${date}, ${machine()}${options.quick ? " — QUICK RUN, not for the README" : ""}`);
  console.log(`Each figure: the median of ${RUNS} runs of ${RUN_SECONDS} s (after a ${WARMUP_SECONDS} s warm-up); all processes on 127.0.0.1.`);
  console.log(`Load average (1 min) at start ${loadAtStart}, at end ${loadAverage()}.\n`);
  console.log(rows.join("\n"));
  for (const note of notes) console.log(`\n${note}`);
  // f) The history's queries on both stores: the dashboard's 365-day trend over 100,000 results, its own table.
  console.log("\nf) The history's queries (scripts/bench/history.ts):");
  const history = spawnSync(TSX_BIN, ["--conditions=react-server", path.join(ROOT, "scripts", "bench", "history.ts"), ...(options.quick ? ["--runs", "5"] : [])], { cwd: ROOT, stdio: "inherit" });
  if (history.status !== 0) process.exitCode = 1;
  say(`\nDone in ${Math.round((Date.now() - started) / 1000)} s.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
