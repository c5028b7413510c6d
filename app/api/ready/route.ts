import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { isShuttingDown } from "@/lib/lifecycle/shutdown";
import { breakerStatus } from "@/lib/upstream";
import { hasMonitoringToken, readinessSnapshot } from "@/lib/upstream/readiness";

// Anyone may ask (load balancers do); it costs the upstreams nothing per caller (see lib/upstream/readiness.ts).
// The detail — which area, why, the breakers — is for an admin's session or a monitoring system's token.
export const GET = defineRoute(operations.ready, async ({ upstreams, user, request }) => {
  const current = await upstreams();
  const { readiness, checkedAt } = await readinessSnapshot(current, breakerStatus);
  const detailed = user?.role === "admin" || hasMonitoringToken(request.headers, current.config.metricsToken);
  const body = { ...(detailed ? readiness : { status: readiness.status }), checked_at: checkedAt.toISOString() };
  // Draining after SIGTERM: still answering, but a load balancer should send new traffic elsewhere.
  if (isShuttingDown()) return { status: 503, json: { ...body, status: "not_ready", shutting_down: true } };
  return { status: readiness.status === "ready" ? 200 : 503, json: body };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
