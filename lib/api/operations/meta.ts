// The operations that are about Gatehouse itself: liveness, readiness and this API's OpenAPI document. Public,
// for load balancers and tools.
import { HealthSchema, ReadinessSchema } from "@/lib/contract/health";

import type { OperationSpec } from "./types";

export const metaOperations = {
  health: {
    id: "health",
    method: "GET",
    path: "/api/health",
    summary: "Liveness: answers without calling any upstream",
    tag: "Operations",
    permission: "public",
    success: { status: 200, description: "Gatehouse is running", schema: HealthSchema },
  },
  ready: {
    id: "ready",
    method: "GET",
    path: "/api/ready",
    summary:
      "Readiness: 200 when every configured area answered the last check (made at most every 5 s, whoever asks) and accepts its key, else 503 (same body). Which area and why only for an admin's session or Authorization: Bearer <METRICS_TOKEN>",
    tag: "Operations",
    permission: "public",
    optionalSession: true,
    success: { status: 200, description: "Ready (503 with the same body when not)", schema: ReadinessSchema },
  },
  openapi: {
    id: "openapi",
    method: "GET",
    path: "/api/openapi.json",
    summary: "This API's OpenAPI 3.1 description, generated from the schemas that validate it",
    tag: "Operations",
    permission: "public",
    success: { status: 200, description: "An OpenAPI 3.1 document" },
  },
} as const satisfies Record<string, OperationSpec>;
