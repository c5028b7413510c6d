import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";
import { checkReadiness } from "@/lib/upstream/readiness";

export const GET = defineRoute(operations.ready, async ({ upstreams }) => {
  const readiness = await checkReadiness(await upstreams());
  return { status: readiness.status === "ready" ? 200 : 503, json: readiness };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
