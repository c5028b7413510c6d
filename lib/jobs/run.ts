// What both providers share: the job's run (its payload checked, its handler's answer, a thrown error turned into
// a retry with backoff or, past the kind's retries, the job's end), the metrics, and the provider's face.
import "server-only";

import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { metrics, onCollect } from "@/lib/metrics";
import { inSpan } from "@/lib/telemetry";

import type { JobContext, JobDefinition, JobOutcome } from "./define";

/** Any kind (a list of kinds, each with its own payload type). */
export type AnyJobDefinition = JobDefinition<unknown>;

export interface TriggerOptions {
  /** The job's id: a job triggered again under an id still waiting or running is the same job. */
  id: string;
  /** Not before this time (now when absent). */
  runAt?: Date;
}

export interface JobProvider {
  readonly runsOn: "queue" | "process";
  /** Adds a job. Rejects when the provider's backend (Redis, the store) is away: the caller keeps its record. */
  trigger(kind: string, payload: unknown, options: TriggerOptions): Promise<void>;
  /** Jobs of the kind waiting (not running): across the cluster on BullMQ, in the store otherwise. */
  waiting(kind: string): Promise<number>;
  /** Lets running jobs finish (a few seconds at most) and hands the rest back at once. */
  stop(): Promise<void>;
}

/** What the provider does after a run: the handler's answer, or for a failure a retry or the end of the job. */
export type NextStep = JobOutcome | { kind: "dropped" };

const DEFAULT_MAX_RETRIES = 5;
/** Backoff after a thrown error: 1 s, 2 s, 4 s… at most a minute. */
export const retryBackoffMs = (retries: number): number => Math.min(1_000 * 2 ** retries, 60_000);

/**
 * Runs one job of `definition` and says what comes next; counts it in `gatehouse_jobs_processed_total`. With traces
 * on, the run is a trace of its own (a span named after the job system, with the kind, the retries and the outcome).
 */
export function runJob(definition: AnyJobDefinition, payload: unknown, context: JobContext): Promise<NextStep> {
  const attributes = { "gatehouse.job.kind": definition.kind, "gatehouse.job.retries": context.retries };
  return inSpan(
    "job.run",
    attributes,
    async (span) => {
      const next = await runJobUntraced(definition, payload, context);
      span.set({ "gatehouse.job.outcome": next.kind });
      return next;
    },
    { root: true },
  );
}

async function runJobUntraced(definition: AnyJobDefinition, payload: unknown, context: JobContext): Promise<NextStep> {
  const processed = metrics().jobs;
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) {
    processed.inc({ kind: definition.kind, outcome: "error" });
    logEvent("error", "job_item_failed", { kind: definition.kind, item: context.id, error: "payload not valid" });
    return { kind: "dropped" };
  }
  try {
    const outcome = await runOutsideRequestContext(() => definition.handle(parsed.data, context));
    processed.inc({ kind: definition.kind, outcome: outcome.kind === "pause_all" ? "paused" : outcome.kind });
    return outcome;
  } catch (error) {
    const last = context.retries >= (definition.maxRetries ?? DEFAULT_MAX_RETRIES);
    processed.inc({ kind: definition.kind, outcome: "error" });
    logEvent(last ? "error" : "warn", last ? "job_item_failed" : "job_item_retried", {
      kind: definition.kind,
      item: context.id,
      retries: context.retries,
      error: describeError(error),
    });
    return last ? { kind: "dropped" } : { kind: "retry", afterMs: retryBackoffMs(context.retries) };
  }
}

/** Counts the kinds' waiting jobs in `gatehouse_jobs_waiting` at each scrape. */
export function collectDepth(provider: JobProvider, kinds: readonly string[]): void {
  onCollect(async () => {
    for (const kind of kinds) metrics().queueDepth.set({ kind }, await provider.waiting(kind));
  });
}
