// Readiness: can each configured area be reached, and does it accept Gatehouse's key? Each check is one cheap,
// read-only documented operation (area A: the first page of projects; area B: the account details).
import "server-only";

import type { Readiness } from "@/lib/api/schemas";
import type { Area } from "@/lib/config/areas";

import { UpstreamError } from "./errors";
import type { Upstreams } from "./index";

type AreaReadiness = Readiness["areas"][Area];

async function probe(check: () => Promise<unknown>): Promise<AreaReadiness> {
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  try {
    await check();
    return { configured: true, reachable: true, key_accepted: true, duration_ms: duration() };
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
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

export async function checkReadiness(upstreams: Upstreams): Promise<Readiness> {
  const { reports, items } = upstreams;
  const [reportsState, itemsState] = await Promise.all([
    reports ? probe(() => reports.listProjects({ per_page: 10 })) : Promise.resolve<AreaReadiness>({ configured: false }),
    items ? probe(() => items.getAccount()) : Promise.resolve<AreaReadiness>({ configured: false }),
  ]);
  const areas = { reports: reportsState, items: itemsState };
  const ready = Object.values(areas).every((a) => !a.configured || a.problem === undefined);
  return { status: ready ? "ready" : "not_ready", mode: upstreams.config.mode, areas };
}
