// Faults that tests inject through the control API, and which request each one hits next. How a fault is
// played on the socket lives in server.ts, beside the other socket work.
import { z } from "zod";

import type { FaultSpec } from "./contract";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

export const faultSpecSchema = z.strictObject({
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(METHODS))
    .optional(),
  path: z.string().startsWith("/", { error: 'path must start with "/" (e.g. "/seo/api/v1/reports" or "/market/*")' }),
  kind: z.enum(["latency", "status", "malformed", "reset", "hang", "trickle"]),
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  status: z.number().int().min(100).max(599).optional(),
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  times: z.number().int().min(1).optional(),
  bytesPerSecond: z.number().int().min(1).max(10_000_000).optional(),
}) satisfies z.ZodType<FaultSpec, unknown>;

export interface ActiveFault {
  id: string;
  spec: FaultSpec;
  /** Matching requests left before the fault removes itself; Infinity until cleared. */
  remaining: number;
}

export class FaultBook {
  private faults: ActiveFault[] = [];
  private counter = 0;

  add(spec: FaultSpec): string {
    const id = `fault-${++this.counter}`;
    this.faults.push({ id, spec, remaining: spec.times ?? Infinity });
    return id;
  }

  clear(): void {
    this.faults = [];
  }

  /** All at once, so that no request falls between a clear and the adds that follow it. */
  replace(specs: FaultSpec[]): string[] {
    this.faults = [];
    return specs.map((spec) => this.add(spec));
  }

  list(): ActiveFault[] {
    return [...this.faults];
  }

  /** The first fault, in the order they were added, that matches; counts it as used. */
  take(method: string, pathname: string): FaultSpec | undefined {
    const fault = this.faults.find(
      ({ spec }) => (spec.method === undefined || spec.method === method) && pathMatches(spec.path, pathname),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault.spec;
  }
}

function pathMatches(pattern: string, pathname: string): boolean {
  return pattern.endsWith("*") ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern;
}
