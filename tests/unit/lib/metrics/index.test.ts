// The metrics registry: one per process (on globalThis), Prometheus text that prom-client's own format rules
// accept, every series labelled with the instance, process metrics included.
import { describe, expect, it } from "vitest";

import { metrics, metricsText, onCollect } from "@/lib/metrics";

/** The value of the one sample of `name` whose labels include `labels` (in any order). */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => has[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe("metrics", () => {
  it("is one registry per process, whatever copy of the module asks", () => {
    expect(metrics()).toBe(metrics());
    expect((globalThis as Record<symbol, unknown>)[Symbol.for("gatehouse.metrics")]).toBe(metrics());
  });

  it("writes Prometheus text with the instance label, the process metrics and what collectors set", async () => {
    metrics().requests.inc({ operation: "reports.list", status: "200" });
    metrics().upstreamSeconds.observe({ area: "reports", operation: "reports.list" }, 0.02);
    onCollect(() => metrics().queueDepth.set({ kind: "bulk-check" }, 7));
    const { text, contentType } = await metricsText("web-1");
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      sample(text, "gatehouse_http_requests_total", {
        operation: "reports.list",
        status: "200",
        gatehouse_instance: "web-1",
      }),
    ).toBe(1);
    expect(
      sample(text, "gatehouse_upstream_call_duration_seconds_bucket", {
        le: "0.025",
        area: "reports",
        operation: "reports.list",
      }),
    ).toBe(1);
    expect(
      sample(text, "gatehouse_upstream_call_duration_seconds_bucket", {
        le: "0.01",
        area: "reports",
        operation: "reports.list",
      }),
    ).toBe(0);
    expect(sample(text, "gatehouse_jobs_waiting", { kind: "bulk-check", gatehouse_instance: "web-1" })).toBe(7);
    expect(sample(text, "gatehouse_process_resident_memory_bytes", { gatehouse_instance: "web-1" })).toBeGreaterThan(0);
    // Every line is a comment (# HELP, # TYPE) or a sample: name{labels} value.
    for (const line of text
      .trim()
      .split("\n")
      .filter((each) => each !== ""))
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? -?[\d.e+-]+|\w+(\{[^}]*\})? (NaN|\+Inf|-Inf))$/i);
  });
});
