// One job system for every kind of background work (lib/jobs/define.ts): a kind is a typed definition, a job is
// a small payload (ids) under an id — added twice, one job — and the store stays the record the pages read. One
// of two providers runs them, behind trigger():
// - BullMQ on the cluster's Redis when REDIS_URL is set (./bullmq.ts): concurrency across the cluster, a pause
//   reaching every instance, a killed instance's jobs run again once its lock lapses;
// - otherwise the store (./store.ts): jobs in the `jobs` table, claimed by lease, a killed process's lease
//   lapsing and another process taking the job; kinds taken in turn.
// Retries, backoff, a pause (429) and the metrics live here and in the providers, once for every kind. A handler
// must be idempotent (a job whose process died runs again): written once in the store, never counted twice.
import "server-only";

import type { Cluster } from "@/lib/cluster";
import type { Db } from "@/lib/db";
import { processSlot } from "@/lib/process-wide";

import { startBullJobs } from "./bullmq";
import type { JobDefinition } from "./define";
import type { AnyJobDefinition, JobProvider, TriggerOptions } from "./run";
import { startStoreJobs } from "./store";

export { defineJob, type JobDefinition, type JobOutcome } from "./define";
export type { JobProvider } from "./run";

export interface JobsDeps {
  cluster: Cluster;
  db: () => Promise<Db>;
}

const PROVIDER = processSlot<{ provider: JobProvider; kinds: Map<string, AnyJobDefinition> }>("jobs.provider");

/**
 * Starts the process's jobs (once, at start): BullMQ when the cluster has Redis, the store otherwise. Every kind
 * trigger() is asked for must be among `definitions`.
 */
export async function startJobs(definitions: readonly AnyJobDefinition[], deps: JobsDeps): Promise<JobProvider> {
  const started = PROVIDER.get();
  if (started) return started.provider;
  const provider = deps.cluster.redis
    ? await startBullJobs(deps.cluster, definitions)
    : startStoreJobs(deps.db, definitions);
  PROVIDER.set({ provider, kinds: new Map(definitions.map((definition) => [definition.kind, definition])) });
  return provider;
}

/** Adds a job of `definition` to the process's provider (startJobs); its payload is checked against the kind's schema. */
export async function trigger<P>(definition: JobDefinition<P>, payload: P, options: TriggerOptions): Promise<void> {
  const started = PROVIDER.get();
  if (!started?.kinds.has(definition.kind)) throw new Error(`jobs of kind ${definition.kind} were not started`);
  await started.provider.trigger(definition.kind, definition.payload.parse(payload), options);
}
