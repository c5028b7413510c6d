// Readiness: can each configured area be reached, and does it accept Gatehouse's key? Each check is one cheap,
// read-only documented operation (area A: the first page of projects; area B: the account details), asked of
// the upstream itself (never answered from the cache); `breakers` shows each configured area's circuit breaker.
// While a breaker is open the check is not sent: the area is not ready until a trial request closes it.
//
// /api/ready is public (load balancers ask it), so a caller must not be able to make Gatehouse spend its keys:
// the upstreams are checked at most once per READINESS_INTERVAL_MS per process, by whichever request finds the
// last check too old (requests arriving meanwhile share it), and every caller gets the state of that check.
// A breaker that has opened since then makes the answer "not ready" at once: that costs nothing to know.
import "server-only";

import { createHash, timingSafeEqual } from "node:crypto";

import type { Readiness } from "@/lib/contract/health";
import type { Area } from "@/lib/contract/areas";
import { processWide } from "@/lib/process-wide";

import { isCircuitOpenError, isUpstreamError } from "./errors";
import type { Upstreams } from "./index";
import type { BreakerStatus } from "./policy";

/** At most one check of the upstreams per this many milliseconds, however many callers ask. */
export const READINESS_INTERVAL_MS = 5_000;

export interface BreakerReadiness {
  state: BreakerStatus["state"];
  /** Milliseconds until the open breaker lets a trial request through; 0 unless open. */
  retry_in_ms: number;
}

type AreaReadiness = NonNullable<Readiness["areas"]>[Area];

/** The readiness answer, plus the circuit breaker of each configured area. */
export type ReadinessWithBreakers = Required<Pick<Readiness, "status" | "mode" | "areas">> & {
  breakers: Partial<Record<Area, BreakerReadiness>>;
};

async function probe(check: () => Promise<unknown>): Promise<AreaReadiness> {
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  try {
    await check();
    return { configured: true, reachable: true, key_accepted: true, duration_ms: duration() };
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    if (isCircuitOpenError(error)) {
      return {
        configured: true,
        reachable: false,
        duration_ms: duration(),
        problem: `the upstream is not answering (circuit open); retrying in ${error.retryAfterSeconds} s`,
      };
    }
    const reachable = error.kind !== "timeout" && error.kind !== "unreachable";
    return {
      configured: true,
      reachable,
      key_accepted: reachable ? error.kind !== "auth" : undefined,
      duration_ms: duration(),
      problem: error.kind === "auth" ? "the upstream rejected the key" : `the upstream check failed: ${error.kind}`,
    };
  }
}

/** One check of every configured area, now: an upstream call per area. Use `readinessSnapshot` for callers. */
export async function checkReadiness(
  upstreams: Upstreams,
  breakerOf: (area: Area) => BreakerStatus,
): Promise<ReadinessWithBreakers> {
  const { reports, items } = upstreams;
  const [reportsState, itemsState] = await Promise.all([
    reports
      ? probe(() => reports.listProjects({ per_page: 10 }, { fresh: true }))
      : Promise.resolve<AreaReadiness>({ configured: false }),
    items ? probe(() => items.getAccount({ fresh: true })) : Promise.resolve<AreaReadiness>({ configured: false }),
  ]);
  const areas = { reports: reportsState, items: itemsState };
  return withBreakers({ status: "ready", mode: upstreams.config.mode, areas, breakers: {} }, breakerOf);
}

/** The breakers as they are now, and the status from the areas and the breakers together. */
function withBreakers(
  readiness: ReadinessWithBreakers,
  breakerOf: (area: Area) => BreakerStatus,
): ReadinessWithBreakers {
  const breakers: Partial<Record<Area, BreakerReadiness>> = {};
  for (const area of ["reports", "items"] as const) {
    if (!readiness.areas[area].configured) continue;
    const { state, retryInMs } = breakerOf(area);
    breakers[area] = { state, retry_in_ms: retryInMs };
  }
  const areasReady = Object.values(readiness.areas).every((a) => !a.configured || a.problem === undefined);
  const breakersClosed = Object.values(breakers).every((b) => b.state !== "open");
  return { ...readiness, breakers, status: areasReady && breakersClosed ? "ready" : "not_ready" };
}

export interface ReadinessSnapshot {
  readiness: ReadinessWithBreakers;
  /** When the upstreams were last asked. */
  checkedAt: Date;
}

interface ReadinessCache {
  last: { readiness: ReadinessWithBreakers; checkedAt: number } | null;
  running: Promise<{ readiness: ReadinessWithBreakers; checkedAt: number }> | null;
}

// Every bundle that serves /api/ready (and a page that might ask) shares one cache per process.
function cache(): ReadinessCache {
  return processWide<ReadinessCache>("upstream.readiness", () => ({ last: null, running: null }));
}

/**
 * The state of the last check, asking the upstreams again only when it is older than READINESS_INTERVAL_MS (and
 * then once, for every caller waiting). The breakers are read now.
 */
export async function readinessSnapshot(
  upstreams: Upstreams,
  breakerOf: (area: Area) => BreakerStatus,
  { now = Date.now(), intervalMs = READINESS_INTERVAL_MS }: { now?: number; intervalMs?: number } = {},
): Promise<ReadinessSnapshot> {
  const state = cache();
  let last = state.last;
  if (!last || now - last.checkedAt >= intervalMs) {
    state.running ??= checkReadiness(upstreams, breakerOf)
      .then((readiness) => (state.last = { readiness, checkedAt: Date.now() }))
      .finally(() => (state.running = null));
    last = await state.running;
  }
  return { readiness: withBreakers(last.readiness, breakerOf), checkedAt: new Date(last.checkedAt) };
}

// ---------------------------------------------------------------------------------------------------------
// Who may see the detail: an admin's session, or a monitoring system holding METRICS_TOKEN (lib/config).

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time; false without a token. */
export function hasMonitoringToken(headers: { get(name: string): string | null }, token: string | null): boolean {
  if (!token) return false;
  const given = /^Bearer\s+(\S+)$/i.exec(headers.get("authorization") ?? "")?.[1];
  if (!given) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}
