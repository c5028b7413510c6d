// What a route does not serve: a JSON 405 with `Allow` (plus X-Request-Id and a log line) instead of Next's
// empty one, and an OPTIONS answer whose `Allow` lists the real methods.
import "server-only";

import { ApiError } from "./errors";
import type { OperationSpec } from "./operations";
import { defineRoute, type RouteHandler } from "./route";

const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * Handlers for what a route does not serve: a JSON 405 with `Allow` (plus X-Request-Id and a log line) instead
 * of Next's empty one, and an OPTIONS answer whose `Allow` lists the real methods. Use as
 * `export const { PUT, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);`.
 */
export function methodsNotAllowed(allowed: readonly RouteMethod[]): Record<RouteMethod | "OPTIONS", RouteHandler> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const spec = {
    id: "methodNotAllowed",
    method: "GET",
    path: "",
    summary: "Method not allowed",
    tag: "Operations",
    permission: "public",
    success: { status: 204, description: "OPTIONS" },
  } as const satisfies OperationSpec;
  const refuse = defineRoute(spec, async () => {
    throw new ApiError("method_not_allowed", `This route answers ${allow} only.`, { headers: { Allow: allow } });
  });
  const options = defineRoute(spec, async () => ({ status: 204, headers: { Allow: allow } }));
  const handlers = Object.fromEntries(ROUTE_METHODS.map((method) => [method, refuse]));
  return { ...handlers, OPTIONS: options } as Record<RouteMethod | "OPTIONS", RouteHandler>;
}
