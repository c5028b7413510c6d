// An area's health in per-minute buckets: bounded to a day, errors counted by status, p50/p95 from the histogram.
import { describe, expect, it } from "vitest";

import { AreaHealth, BUCKET_MS, isErrorStatus } from "@/lib/upstream/keys/health";

const T0 = Date.UTC(2026, 10, 24, 14, 0, 0);

describe("AreaHealth", () => {
  it("counts requests and errors over the last hour and day, with p50 and p95 as histogram bounds", () => {
    const health = new AreaHealth();
    for (let i = 0; i < 90; i++) health.record(200, 40, T0 + i * 1000);
    for (let i = 0; i < 10; i++) health.record(503, 900, T0 + i * 1000);
    const hour = health.summary(60, T0 + 100_000);
    expect(hour).toEqual({ requests: 100, errors: 10, error_rate: 0.1, p50_ms: 50, p95_ms: 1000 });
    expect(health.lastSuccessAt).not.toBeNull();
    expect(health.lastFailureAt).not.toBeNull();
  });

  it("forgets what is older than the window, and keeps a day at most whatever the traffic", () => {
    const health = new AreaHealth();
    health.record(200, 10, T0);
    expect(health.summary(60, T0 + 59 * BUCKET_MS).requests).toBe(1);
    expect(health.summary(60, T0 + 61 * BUCKET_MS).requests).toBe(0);
    expect(health.summary(24 * 60, T0 + 23 * 60 * BUCKET_MS).requests).toBe(1);
    // A day later the same ring slot holds the new minute; the old count is gone.
    health.record(200, 10, T0 + 24 * 60 * BUCKET_MS);
    expect(health.summary(24 * 60, T0 + 24 * 60 * BUCKET_MS).requests).toBe(1);
  });

  it("gives the chart's points oldest first, each with its own counts", () => {
    const health = new AreaHealth();
    health.record(200, 10, T0);
    health.record(null, 10_000, T0 + 10 * BUCKET_MS);
    const points = health.series(12, 5, T0 + 10 * BUCKET_MS);
    expect(points).toHaveLength(12);
    expect(points.at(-1)).toMatchObject({ requests: 1, errors: 1, p95_ms: 10_000 });
    expect(points.at(-3)).toMatchObject({ requests: 1, errors: 0 });
    expect(points[0]).toMatchObject({ requests: 0, p50_ms: null });
  });

  it("calls no answer, a 5xx, a 429 and a refused key errors; a 404 or 422 is an answer", () => {
    expect([null, 500, 503, 429, 401, 403].every(isErrorStatus)).toBe(true);
    expect([200, 204, 404, 422].some(isErrorStatus)).toBe(false);
  });
});
