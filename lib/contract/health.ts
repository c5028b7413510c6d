// The gateway's own state, as the public operations answer it: liveness and readiness.
import { z } from "zod";

import { isoTimestamp } from "./common";

export const AreaReadinessSchema = z.object({
  configured: z.boolean(),
  reachable: z.boolean().optional().describe("The upstream answered"),
  key_accepted: z.boolean().optional().describe("The upstream accepted Gatehouse's key"),
  duration_ms: z.number().optional(),
  problem: z.string().optional(),
});
export const BreakerSchema = z.object({
  state: z
    .enum(["closed", "open", "half_open"])
    .describe("open: calls are answered 503 upstream_unavailable without asking the upstream"),
  retry_in_ms: z.number().describe("Until a trial request may go through; 0 unless open"),
});
export const ReadinessSchema = z.object({
  status: z.enum(["ready", "not_ready"]),
  checked_at: isoTimestamp.check(z.describe("When the upstreams were last asked (at most every 5 s, whoever asks)")),
  mode: z
    .enum(["configured", "demo"])
    .optional()
    .describe("Detail: for an admin's session or Authorization: Bearer <METRICS_TOKEN>"),
  areas: z.object({ reports: AreaReadinessSchema, items: AreaReadinessSchema }).optional().describe("Detail, as mode"),
  breakers: z
    .object({ reports: BreakerSchema.optional(), items: BreakerSchema.optional() })
    .optional()
    .describe("Detail, as mode: the circuit breaker of each configured area"),
  dependencies: z
    .object({
      store: z.object({ reachable: z.boolean(), problem: z.string().optional() }),
      redis: z.object({ configured: z.boolean(), reachable: z.boolean().optional() }),
    })
    .optional()
    .describe(
      "Detail, as mode: the store and Redis (REDIS_URL), asked at every probe; either unreachable makes the instance not ready",
    ),
  shutting_down: z.boolean().optional().describe("true after SIGTERM, while requests in flight finish"),
});
export type Readiness = z.infer<typeof ReadinessSchema>;

export const HealthSchema = z.object({ status: z.literal("ok") });
