import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";
import { isShuttingDown } from "@/lib/lifecycle/shutdown";
import { breakerStatus } from "@/lib/upstream";
import { checkReadiness } from "@/lib/upstream/readiness";

export const GET = defineRoute(operations.ready, async ({ upstreams }) => {
  const readiness = await checkReadiness(await upstreams(), breakerStatus);
  // Draining after SIGTERM: still answering, but a load balancer should send new traffic elsewhere.
  if (isShuttingDown()) return { status: 503, json: { ...readiness, status: "not_ready", shutting_down: true } };
  return { status: readiness.status === "ready" ? 200 : 503, json: readiness };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
