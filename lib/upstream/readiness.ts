// Readiness: can each configured area be reached, and does it accept Gatehouse's key? Each check is one cheap,
// read-only documented operation (area A: the first page of projects; area B: the account details), asked of
// the upstream itself (never answered from the cache); `breakers` shows each configured area's circuit breaker. While
// a breaker is open the check is not sent: the area is not ready until a trial request closes it.
import "server-only";

import type { Readiness } from "@/lib/api/schemas";
import type { Area } from "@/lib/config/areas";

import { isCircuitOpenError, isUpstreamError } from "./is-upstream-error";
import type { Upstreams } from "./index";
import type { BreakerStatus } from "./policy";

export interface BreakerReadiness {
  state: BreakerStatus["state"];
  /** Milliseconds until the open breaker lets a trial request through; 0 unless open. */
  retry_in_ms: number;
}

type AreaReadiness = Readiness["areas"][Area];

/** The readiness answer, plus the circuit breaker of each configured area. */
export type ReadinessWithBreakers = Readiness & { breakers: Partial<Record<Area, BreakerReadiness>> };

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

export async function checkReadiness(
  upstreams: Upstreams,
  breakerOf: (area: Area) => BreakerStatus,
): Promise<ReadinessWithBreakers> {
  const { reports, items } = upstreams;
  const [reportsState, itemsState] = await Promise.all([
    reports ? probe(() => reports.listProjects({ per_page: 10 }, { fresh: true })) : Promise.resolve<AreaReadiness>({ configured: false }),
    items ? probe(() => items.getAccount({ fresh: true })) : Promise.resolve<AreaReadiness>({ configured: false }),
  ]);
  const areas = { reports: reportsState, items: itemsState };
  const breakers: Partial<Record<Area, BreakerReadiness>> = {};
  for (const area of ["reports", "items"] as const) {
    if (!areas[area].configured) continue;
    const { state, retryInMs } = breakerOf(area);
    breakers[area] = { state, retry_in_ms: retryInMs };
  }
  const ready = Object.values(areas).every((a) => !a.configured || a.problem === undefined);
  return { status: ready ? "ready" : "not_ready", mode: upstreams.config.mode, areas, breakers };
}
