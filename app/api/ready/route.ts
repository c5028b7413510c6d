import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { getServerContext } from "@/lib/auth/access";
import { can } from "@/lib/auth/permissions";
import { currentCluster, redisReachable } from "@/lib/cluster";
import { storeProblem } from "@/lib/db";
import { isShuttingDown } from "@/lib/lifecycle/shutdown";
import { breakerStatus } from "@/lib/upstream";
import { hasMonitoringToken, readinessSnapshot } from "@/lib/upstream/readiness";

// Anyone may ask (load balancers do); it costs the upstreams nothing per caller (see lib/upstream/readiness.ts;
// the breakers it reads are shared by every instance when Redis is configured). The store and Redis are asked
// at every probe (a trivial query, a PING): an instance that cannot reach them must leave the rotation at once.
// The detail — which area, why, the breakers, the store, Redis — is for a session that may see the areas' health
// (upstream:manage: admins) or a monitoring system's token.
export const GET = defineRoute(operations.ready, async ({ upstreams, caller, request }) => {
  // Draining after SIGTERM: still answering, but a load balancer should send new traffic elsewhere.
  const draining = isShuttingDown();
  const current = await upstreams();
  const cluster = currentCluster();
  const [{ readiness, checkedAt }, store, redis] = await Promise.all([
    readinessSnapshot(current, breakerStatus),
    getServerContext().then(
      ({ db }) => storeProblem(db),
      () => "the store cannot be opened",
    ),
    redisReachable(cluster),
  ]);
  const dependencies = {
    store: store === null ? { reachable: true } : { reachable: false, problem: store },
    redis: cluster.redis ? { configured: true, reachable: redis } : { configured: false },
  };
  const ready = readiness.status === "ready" && store === null && redis;
  const detailed =
    (caller !== null && can(caller, "upstream:manage")) ||
    hasMonitoringToken(request.headers, current.config.metricsToken);
  const status = ready ? "ready" : "not_ready";
  const body = { ...(detailed ? { ...readiness, dependencies } : {}), status, checked_at: checkedAt.toISOString() };
  if (draining || isShuttingDown()) return { status: 503, json: { ...body, status: "not_ready", shutting_down: true } };
  return { status: ready ? 200 : 503, json: body };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
