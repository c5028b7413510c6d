// A kind of background work, typed once: its payload's schema (small: ids; the store stays the record), how many
// run at once, and its handler. The handler says what comes next; the provider (./bullmq.ts or ./store.ts) does it.
import type { z } from "zod";

/**
 * What a handler answers:
 * - `done`: the job is over (whatever it wrote in the store is the record);
 * - `retry`: run it again after `afterMs` (the provider counts the retries: `JobContext.retries`);
 * - `pause_all`: the upstream asked everyone to wait (a 429): the kind waits `ms` on every instance, and this job
 *   runs again after, its retries not counted;
 * - `continue`: there is more to do (a long job done a slice at a time): run it again soon, behind the kind's other
 *   jobs already due, its retries not counted.
 * A handler that throws is retried with backoff (RETRY_BACKOFF_MS), at most `maxRetries` times, then dropped and logged.
 */
export type JobOutcome =
  { kind: "done" } | { kind: "retry"; afterMs: number } | { kind: "pause_all"; ms: number } | { kind: "continue" };

export interface JobContext {
  /** The job's id (as triggered). */
  id: string;
  /** How many times the job was retried before this run (0 on its first). */
  retries: number;
}

export interface JobDefinition<P> {
  /** The kind's name; on BullMQ its queue is gatehouse-<kind>. */
  kind: string;
  payload: z.ZodType<P>;
  /** Jobs of this kind running at once: across the cluster on BullMQ, in each process on the store. */
  concurrency: number;
  /** Retries after a thrown error before the job is dropped (5 unless said). */
  maxRetries?: number;
  handle(payload: P, context: JobContext): Promise<JobOutcome>;
}

/** A job definition: the kind's one description, given to startJobs() and to trigger(). */
export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}
