// Prometheus metrics through prom-client: one registry per process with every Gatehouse metric, served as text
// by GET /metrics (app/metrics/route.ts, behind METRICS_TOKEN). The registry and the metrics are process-wide
// (lib/process-wide.ts), so that the route that serves them sees what every other bundle counted.
import "server-only";

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

import { processWide } from "@/lib/process-wide";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "gatehouse_" });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: "gatehouse_http_requests_total",
      help: "API requests answered, by operation and status.",
      labelNames: ["operation", "status"] as const,
      registers,
    }),
    requestSeconds: new Histogram({
      name: "gatehouse_http_request_duration_seconds",
      help: "Time to answer an API request, by operation.",
      labelNames: ["operation"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    upstreamCalls: new Counter({
      name: "gatehouse_upstream_calls_total",
      help: "Calls to the upstream APIs, by area, operation and outcome (ok or the failure's kind).",
      labelNames: ["area", "operation", "outcome"] as const,
      registers,
    }),
    upstreamSeconds: new Histogram({
      name: "gatehouse_upstream_call_duration_seconds",
      help: "Time of one upstream call, by area and operation.",
      labelNames: ["area", "operation"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    cache: new Counter({
      name: "gatehouse_upstream_cache_total",
      help: "Upstream reads answered from the cache (hit: this process, shared: Redis) or not (miss).",
      labelNames: ["area", "result"] as const,
      registers,
    }),
    breaker: new Gauge({
      name: "gatehouse_upstream_breaker_state",
      help: "Each area's circuit breaker: 0 closed, 1 half open, 2 open.",
      labelNames: ["area"] as const,
      registers,
    }),
    queueDepth: new Gauge({
      name: "gatehouse_jobs_waiting",
      help: "Work items waiting in the job queue, by kind (for the whole cluster when it runs on Redis).",
      labelNames: ["kind"] as const,
      registers,
    }),
    jobs: new Counter({
      name: "gatehouse_jobs_processed_total",
      help: "Work items this instance finished, by kind and outcome.",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    /** Called just before the registry is read: gauges that are asked rather than kept up to date. */
    collectors: [] as Array<() => Promise<void> | void>,
  };
}

export type Metrics = ReturnType<typeof create>;

/** The process's metrics, created on first use. */
export function metrics(): Metrics {
  return processWide("metrics", create);
}

/** Registers a gauge refresher run before each scrape (e.g. the queue's depth, asked of Redis). */
export function onCollect(collect: () => Promise<void> | void): void {
  metrics().collectors.push(collect);
}

/**
 * The Prometheus text of every metric, and its content type; each series carries `gatehouse_instance` (not
 * `instance`, which Prometheus sets to the scraped address itself).
 */
export async function metricsText(instance: string): Promise<{ text: string; contentType: string }> {
  const current = metrics();
  current.registry.setDefaultLabels({ gatehouse_instance: instance });
  await Promise.allSettled(current.collectors.map(async (collect) => collect()));
  return { text: await current.registry.metrics(), contentType: current.registry.contentType };
}
