// Gatehouse's routes against the framework floor: GET /api/ping of scripts/framework-floor, a bare Next.js route
// handler, so that what every Gatehouse route pays (proxy, route wrapper, session check) shows instead of being
// part of the floor. Used by `npm run bench` (run.ts) and its CI guard, `npm run bench:guard` (guard.ts).
//
// Each target is loaded by autocannon; the figure that counts is the CPU time of the server process that answers
// (utime + stime of /proc/<pid>/stat, with its descendants') per request completed in the same window, read before
// and after each load. Unlike requests per second it hardly depends on what else the machine runs, and it is what
// an instance pays per request. The ratio to the floor is the floor's CPU per request ÷ the route's: 1.0 is as
// cheap as the floor, 0.5 twice its cost.
import autocannon from "autocannon";

import type { FloorServer } from "../framework-floor";

import { CLOCK_TICKS_PER_SECOND, cpuTicks, sessionHeaders, say, type Portal } from "./processes";

export interface Target {
  /** Its key in the goals. */
  id: string;
  /** Its row in the table. */
  name: string;
  url: string;
  /** The server process that answers it: its CPU time is read. */
  pid: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export const floorTarget = (floor: FloorServer): Target => ({
  id: "floor",
  name: "floor: GET /api/ping (bare Next.js route handler)",
  url: `${floor.url}/api/ping`,
  pid: floor.pid,
});

export const healthTarget = (portal: Portal): Target => ({
  id: "health",
  name: "GET /api/health (no session)",
  url: `${portal.url}/api/health`,
  pid: portal.pid,
});

/** The reports list, signed in, as the list page asks it: with the cache on (the defaults) every call is a hit after the first. */
export const cachedListTarget = (portal: Portal, id = "cachedList", where = ""): Target => ({
  id,
  name: `GET /api/reports?per_page=25 (signed in, cached${where})`,
  url: `${portal.url}/api/reports?per_page=25`,
  pid: portal.pid,
  headers: sessionHeaders(portal),
});

/** Goal or bar per target id: the least CPU ratio to the floor (floor's CPU per request ÷ the route's) it may show. */
export type Bars = Readonly<Record<string, number>>;

/** The goals of `npm run bench` (issue 29): what the routes should reach; a missed one is reported, not fatal. */
export const GOALS: Bars = { health: 0.95, cachedList: 0.95, cachedListRedis: 0.85 };

/**
 * The bars of `npm run bench:guard`: it fails when a route's CPU ratio to the floor is
 * under its bar. Each is about 0.1 under what the guard measured on 2026-11-27 after the server work of issue 29
 * (health 0.60–0.67, cached list 0.41–0.44; runs move by about ±0.04 on a shared machine): noise does not fail
 * CI, a route that gets a fifth dearer does. They are below the GOALS, which are not met yet
 * (docs/development.md, "What the gateway costs"); raise them with each gain.
 */
export const GUARD_BARS: Bars = { health: 0.52, cachedList: 0.33 };

export interface Plan {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

/** Each figure the median of the rounds: a round that something else on the machine disturbed does not decide it. */
export interface Measured {
  target: Target;
  /** The server's CPU time per completed request, in ms. */
  cpuMsPerRequest: number;
  /** Completed requests per second. */
  rps: number;
  /** The 99th percentile of latency, in ms. */
  p99: number;
}

interface Round {
  requests: number;
  ticks: number;
  rps: number;
  p99: number;
}

async function load(target: Target, seconds: number, connections: number): Promise<Round> {
  const before = cpuTicks(target.pid);
  const result = await autocannon({
    url: target.url,
    method: target.method ?? "GET",
    headers: target.headers ?? {},
    body: target.body,
    connections,
    duration: seconds,
  });
  const ticks = cpuTicks(target.pid) - before;
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0)
    throw new Error(
      `${target.name}: ${failed} of ${result.requests.total} requests failed (answers by status: ${JSON.stringify(result.statusCodeStats)})`,
    );
  return {
    requests: result.requests.total,
    ticks,
    rps: result.requests.total / result.duration,
    p99: result.latency.p99,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpuMs = (round: Round) => (round.ticks / CLOCK_TICKS_PER_SECOND / round.requests) * 1000;

/** Warms each target up, then loads them in turns, round after round, so that drift hits all alike. */
export async function measureAgainstFloor(targets: Target[], plan: Plan): Promise<Measured[]> {
  for (const target of targets) await load(target, plan.warmupSeconds, plan.connections);
  const rounds = new Map<Target, Round[]>(targets.map((target) => [target, []]));
  for (let round = 1; round <= plan.rounds; round++) {
    for (const target of targets) {
      const figures = await load(target, plan.seconds, plan.connections);
      rounds.get(target)!.push(figures);
      say(
        `  round ${round}/${plan.rounds} ${target.name}: ${figures.rps.toFixed(0)} req/s, p99 ${figures.p99} ms, CPU ${cpuMs(figures).toFixed(3)} ms/request`,
      );
    }
  }
  return targets.map((target) => {
    const list = rounds.get(target)!;
    return {
      target,
      cpuMsPerRequest: median(list.map(cpuMs)),
      rps: median(list.map((r) => r.rps)),
      p99: median(list.map((r) => r.p99)),
    };
  });
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-GB", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** CPU ratio to the floor (the first measured): floor's CPU per request ÷ the target's. */
export const cpuRatio = (measured: Measured[], m: Measured) => measured[0]!.cpuMsPerRequest / m.cpuMsPerRequest;

/** Targets under their bar, as "name: ratio < bar". */
export function missedBars(measured: Measured[], bars: Bars): string[] {
  return measured.flatMap((m) => {
    const bar = bars[m.target.id];
    const ratio = cpuRatio(measured, m);
    return bar !== undefined && ratio < bar ? [`${m.target.name}: ${fmt(ratio, 2)} < ${fmt(bar, 2)}`] : [];
  });
}

/** One Markdown table; the floor (the first measured) is its first row. */
export function floorTable(measured: Measured[], bars: Bars, barName = "goal"): string {
  const floor = measured[0]!;
  const rows = measured.map((m) => {
    const ratio = cpuRatio(measured, m);
    const bar = bars[m.target.id];
    const verdict = bar === undefined ? "—" : `≥ ${fmt(bar, 2)}: ${ratio >= bar ? "met" : "**missed**"}`;
    const cells = [
      m.target.name,
      `${fmt(m.cpuMsPerRequest, 3)} ms`,
      fmt(ratio, 2),
      fmt(m.rps),
      fmt(m.rps / floor.rps, 2),
      `${fmt(m.p99)} ms`,
      verdict,
    ];
    return `| ${cells.join(" | ")} |`;
  });
  return [
    `| route | CPU per request | ÷ floor (CPU) | req/s | ÷ floor (req/s) | p99 | ${barName} (÷ floor, CPU) |`,
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
