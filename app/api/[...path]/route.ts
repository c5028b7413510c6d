// Any /api path without a route: a JSON 404 in the API's error envelope (with X-Request-Id), not an HTML page.
import { ApiError } from "@/lib/api/errors";
import type { OperationSpec } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";

const unknownRoute = {
  id: "unknownRoute",
  method: "GET",
  path: "/api/{path}",
  summary: "No such route",
  tag: "Operations",
  permission: "public",
  success: { status: 200, description: "Never" },
} as const satisfies OperationSpec;

const notFound = defineRoute(unknownRoute, async () => {
  throw new ApiError("not_found", "There is no such API route. The routes are listed in /api/openapi.json.");
});

export { notFound as DELETE, notFound as GET, notFound as PATCH, notFound as POST, notFound as PUT };
