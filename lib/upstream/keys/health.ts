// An area's health as this process saw it: every upstream exchange (not the answers served from the cache) in
// per-minute buckets, kept for a day in a fixed ring of 1,440 buckets per area — bounded whatever the traffic
// (each bucket is two counters and a latency histogram of fixed bounds). In memory and per process on purpose:
// the numbers describe what this instance sees of the upstream, cost no write per request, and a restart
// forgets at most a day of charts. The last rejection of a key, which every instance must show, is in the
// store instead (./store.ts). p50/p95 are read from the histogram: "at most N ms", N a bucket's upper bound.
import type { Area } from "@/lib/contract/areas";
import { processWide } from "@/lib/process-wide";

export const BUCKET_MS = 60_000;
const DAY_BUCKETS = 24 * 60;
/** Upper bounds of the latency histogram, in ms; the last catches everything slower. */
export const LATENCY_BOUNDS_MS = [
  10,
  25,
  50,
  75,
  100,
  150,
  200,
  300,
  500,
  750,
  1000,
  1500,
  2000,
  3000,
  5000,
  10_000,
  30_000,
  Number.POSITIVE_INFINITY,
];

interface Bucket {
  minute: number;
  requests: number;
  errors: number;
  latency: number[];
}

export interface WindowSummary {
  requests: number;
  errors: number;
  /** errors / requests, 0 when there were none. */
  error_rate: number;
  /** null when there were no requests. */
  p50_ms: number | null;
  p95_ms: number | null;
}

export interface SeriesPoint extends WindowSummary {
  /** ISO time the point's span starts. */
  from: string;
}

/** Is this exchange an upstream error? No answer, a 5xx, a 429, or the key refused (401/403). */
export function isErrorStatus(status: number | null): boolean {
  return status === null || status >= 500 || status === 429 || status === 401 || status === 403;
}

export class AreaHealth {
  private readonly buckets: (Bucket | undefined)[] = new Array(DAY_BUCKETS);
  lastSuccessAt: string | null = null;
  lastFailureAt: string | null = null;

  record(status: number | null, durationMs: number, now = Date.now()): void {
    const minute = Math.floor(now / BUCKET_MS);
    const slot = minute % DAY_BUCKETS;
    let bucket = this.buckets[slot];
    if (!bucket || bucket.minute !== minute) {
      bucket = { minute, requests: 0, errors: 0, latency: new Array(LATENCY_BOUNDS_MS.length).fill(0) };
      this.buckets[slot] = bucket;
    }
    bucket.requests += 1;
    const index = LATENCY_BOUNDS_MS.findIndex((bound) => durationMs <= bound);
    bucket.latency[index]! += 1;
    if (isErrorStatus(status)) {
      bucket.errors += 1;
      this.lastFailureAt = new Date(now).toISOString();
    } else if (status !== null && status < 400) {
      this.lastSuccessAt = new Date(now).toISOString();
    }
  }

  /** The last `minutes` minutes, up to now. */
  summary(minutes: number, now = Date.now()): WindowSummary {
    const last = Math.floor(now / BUCKET_MS);
    return summarise(this.bucketsBetween(last - minutes + 1, last));
  }

  /** `points` points of `minutesEach` minutes, oldest first, ending now: the chart's data. */
  series(points: number, minutesEach: number, now = Date.now()): SeriesPoint[] {
    const last = Math.floor(now / BUCKET_MS);
    const out: SeriesPoint[] = [];
    for (let i = points - 1; i >= 0; i--) {
      const to = last - i * minutesEach;
      const from = to - minutesEach + 1;
      out.push({ from: new Date(from * BUCKET_MS).toISOString(), ...summarise(this.bucketsBetween(from, to)) });
    }
    return out;
  }

  private bucketsBetween(fromMinute: number, toMinute: number): Bucket[] {
    const found: Bucket[] = [];
    for (let minute = Math.max(fromMinute, toMinute - DAY_BUCKETS + 1); minute <= toMinute; minute++) {
      const bucket = this.buckets[((minute % DAY_BUCKETS) + DAY_BUCKETS) % DAY_BUCKETS];
      if (bucket && bucket.minute === minute) found.push(bucket);
    }
    return found;
  }
}

function summarise(buckets: Bucket[]): WindowSummary {
  const latency = new Array<number>(LATENCY_BOUNDS_MS.length).fill(0);
  let requests = 0;
  let errors = 0;
  for (const bucket of buckets) {
    requests += bucket.requests;
    errors += bucket.errors;
    bucket.latency.forEach((count, i) => (latency[i]! += count));
  }
  return {
    requests,
    errors,
    error_rate: requests === 0 ? 0 : errors / requests,
    p50_ms: percentile(latency, requests, 0.5),
    p95_ms: percentile(latency, requests, 0.95),
  };
}

function percentile(histogram: number[], total: number, p: number): number | null {
  if (total === 0) return null;
  const rank = Math.ceil(total * p);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i]!;
    if (seen >= rank) {
      const bound = LATENCY_BOUNDS_MS[i]!;
      return Number.isFinite(bound) ? bound : LATENCY_BOUNDS_MS[i - 1]!;
    }
  }
  return null;
}

/** One AreaHealth per area per process, shared by every bundle. */
export function areaHealth(area: Area): AreaHealth {
  return processWide<Record<Area, AreaHealth>>("upstream.health", () => ({
    reports: new AreaHealth(),
    items: new AreaHealth(),
  }))[area];
}
