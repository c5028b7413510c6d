// GET /metrics: Prometheus text (lib/metrics) for a monitoring system holding METRICS_TOKEN. Without the token
// configured the route does not exist (404); without the right `Authorization: Bearer` it is refused (401).
import { getConfig } from "@/lib/config";
import { instanceId } from "@/lib/log";
import { metrics, metricsText } from "@/lib/metrics";
import { breakerStatus } from "@/lib/upstream";
import { hasMonitoringToken } from "@/lib/upstream/readiness";

export const dynamic = "force-dynamic";

const BREAKER_VALUE = { closed: 0, half_open: 1, open: 2 } as const;

export async function GET(request: Request): Promise<Response> {
  const config = await getConfig();
  if (!config.metricsToken)
    return new Response("Not found.\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (!hasMonitoringToken(request.headers, config.metricsToken)) {
    return new Response("The metrics need Authorization: Bearer <METRICS_TOKEN>.\n", {
      status: 401,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "www-authenticate": 'Bearer realm="metrics"',
        "cache-control": "no-store",
      },
    });
  }
  for (const area of ["reports", "items"] as const) {
    if (config.upstream[area]) metrics().breaker.set({ area }, BREAKER_VALUE[breakerStatus(area).state]);
  }
  const { text, contentType } = await metricsText(instanceId());
  return new Response(text, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
}
