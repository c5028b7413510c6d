// The jobs in the store, run in process, when there is no Redis: one row per job in `jobs`, waiting until its
// run_at, then claimed by lease (a conditional UPDATE: one process wins) and run here. The lease is renewed while
// the job runs; a process that dies (kill -9) stops renewing it, and once it lapses another process takes the
// job. The kinds are taken in turn, each up to its concurrency in this process, so a kind with a long queue never
// holds up another. A pause (429) is written in `job_pauses`: no process takes the kind's jobs before it ends.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

import "server-only";

import { sql } from "kysely";

import type { Db } from "@/lib/db";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";

import {
  collectDepth,
  runJob,
  type AnyJobDefinition,
  type JobProvider,
  type NextStep,
  type TriggerOptions,
} from "./run";

export const LEASE_MS = 30_000;
/** Look for due jobs this often at least (another process may have added some). */
const POLL_MS = 1_000;
const STOP_WAIT_MS = 3_000;

export interface StoreJobsOptions {
  /** How long a claimed job is ours without a renewal (tests shorten it). */
  leaseMs?: number;
}

interface Claimed {
  id: string;
  payload: string;
  retries: number;
}

/** Starts running `definitions`' jobs from the store in this process. */
export function startStoreJobs(
  db: () => Promise<Db>,
  definitions: readonly AnyJobDefinition[],
  options: StoreJobsOptions = {},
): JobProvider {
  const jobs = new StoreJobs(db, definitions, options.leaseMs ?? LEASE_MS);
  collectDepth(jobs, [...definitions.map((definition) => definition.kind)]);
  onShutdown("jobs (store)", () => jobs.stop());
  jobs.kick();
  return jobs;
}

class StoreJobs implements JobProvider {
  readonly runsOn = "process" as const;
  /** Identifies this process's leases. */
  private readonly owner = `${process.pid}-${randomUUID()}`;
  private readonly kinds: AnyJobDefinition[];
  private readonly running = new Map<string, number>();
  private readonly runs = new Set<Promise<void>>();
  private readonly held = new Set<string>();
  private turn = 0;
  private pumping = false;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly db: () => Promise<Db>,
    definitions: readonly AnyJobDefinition[],
    private readonly leaseMs: number,
  ) {
    this.kinds = [...definitions];
    this.heartbeat = setInterval(() => void this.renew(), Math.floor(leaseMs / 3)).unref();
  }

  async trigger(kind: string, payload: unknown, { id, runAt }: TriggerOptions): Promise<void> {
    if (!this.kinds.some((definition) => definition.kind === kind))
      throw new Error(`no jobs of kind ${kind} were started`);
    const now = new Date();
    await (
      await this.db()
    )
      .insertInto("jobs")
      .values({
        id,
        kind,
        payload: JSON.stringify(payload),
        run_at: (runAt ?? now).toISOString(),
        lease_owner: null,
        lease_until: null,
        created_at: now.toISOString(),
      })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .execute();
    this.kick();
  }

  async waiting(kind: string): Promise<number> {
    const at = new Date().toISOString();
    const row = await (
      await this.db()
    )
      .selectFrom("jobs")
      .select(sql<number>`count(*)`.as("n"))
      .where("kind", "=", kind)
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at)]))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.heartbeat);
    if (this.timer) clearTimeout(this.timer);
    await Promise.race([Promise.all(this.runs), sleep(STOP_WAIT_MS)]);
    // Whatever still runs goes back at once: the next process (or another) takes it without waiting for the lease.
    await (
      await this.db()
    )
      .updateTable("jobs")
      .set({ lease_owner: null, lease_until: null })
      .where("lease_owner", "=", this.owner)
      .execute()
      .catch((error: unknown) => logEvent("error", "jobs_release_failed", { error: describeError(error) }));
  }

  /** Look for due jobs now (one was added, one finished, or the poll). */
  kick(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    runOutsideRequestContext(
      () =>
        void this.pump().finally(() => {
          this.pumping = false;
          if (this.again) {
            this.again = false;
            this.kick();
          }
        }),
    );
  }

  private async pump(): Promise<void> {
    let wakeIn = POLL_MS;
    try {
      const db = await this.db();
      await this.fill(db);
      // Sleep until the next job is due (a retry, a delayed run, a pause's end), the poll at the latest.
      const next = await db
        .selectFrom("jobs")
        .select((eb) => eb.fn.min("run_at").as("next"))
        .where(
          "kind",
          "in",
          this.kinds.map((definition) => definition.kind),
        )
        .where("lease_until", "is", null)
        .executeTakeFirst();
      const dueIn = next?.next ? Date.parse(next.next) - Date.now() : 0;
      if (dueIn > 0) wakeIn = Math.min(POLL_MS, Math.max(20, dueIn));
    } catch (error) {
      logEvent("error", "jobs_runner_failed", { error: describeError(error) });
    }
    if (!this.stopped) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.kick(), wakeIn).unref();
    }
  }

  /** Claims due jobs, taking the kinds in turn, until each kind is at its concurrency or has nothing due. */
  private async fill(db: Db): Promise<void> {
    const now = new Date();
    const paused = new Set(
      (await db.selectFrom("job_pauses").select("kind").where("paused_until", ">", now.toISOString()).execute()).map(
        (row) => row.kind,
      ),
    );
    const done = new Set<string>(paused);
    while (!this.stopped && done.size < this.kinds.length) {
      const definition = this.kinds[this.turn % this.kinds.length]!;
      this.turn = (this.turn + 1) % this.kinds.length;
      if (done.has(definition.kind)) continue;
      const claimed =
        (this.running.get(definition.kind) ?? 0) < definition.concurrency
          ? await this.claim(db, definition.kind, now)
          : null;
      if (claimed) this.start(definition, claimed);
      else done.add(definition.kind);
    }
  }

  /** Takes the kind's oldest due job that no live process holds; null when there is none. */
  private async claim(db: Db, kind: string, now: Date): Promise<Claimed | null> {
    const at = now.toISOString();
    const candidates = await db
      .selectFrom("jobs")
      .select(["id", "payload", "retries"])
      .where("kind", "=", kind)
      .where("run_at", "<=", at)
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at)]))
      .orderBy("run_at")
      .orderBy("id")
      .limit(5)
      .execute();
    for (const candidate of candidates) {
      const result = await db
        .updateTable("jobs")
        .set({ lease_owner: this.owner, lease_until: new Date(now.getTime() + this.leaseMs).toISOString() })
        .where("id", "=", candidate.id)
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return { ...candidate, retries: Number(candidate.retries) };
    }
    return null;
  }

  private start(definition: AnyJobDefinition, job: Claimed): void {
    const { kind } = definition;
    this.running.set(kind, (this.running.get(kind) ?? 0) + 1);
    this.held.add(job.id);
    const run = (async () => {
      const next = await runJob(definition, parseJson(job.payload), { id: job.id, retries: job.retries });
      await this.settle(kind, job, next);
    })()
      .catch((error: unknown) =>
        logEvent("error", "jobs_runner_failed", { kind, item: job.id, error: describeError(error) }),
      )
      .finally(() => {
        this.running.set(kind, (this.running.get(kind) ?? 1) - 1);
        this.held.delete(job.id);
        this.runs.delete(run);
        this.kick();
      });
    this.runs.add(run);
  }

  /** Writes what comes after a run, while the job is still ours (a lease lost meanwhile: another runs it). */
  private async settle(kind: string, job: Claimed, next: NextStep): Promise<void> {
    const db = await this.db();
    const ours = db.updateTable("jobs").where("id", "=", job.id).where("lease_owner", "=", this.owner);
    if (next.kind === "done" || next.kind === "dropped") {
      await db.deleteFrom("jobs").where("id", "=", job.id).where("lease_owner", "=", this.owner).execute();
      return;
    }
    if (next.kind === "retry") {
      const runAt = new Date(Date.now() + next.afterMs).toISOString();
      await ours.set({ run_at: runAt, retries: job.retries + 1, lease_owner: null, lease_until: null }).execute();
      return;
    }
    if (next.kind === "continue") {
      // Due now, behind the kind's jobs already due (they are claimed oldest run_at first).
      await ours.set({ run_at: new Date().toISOString(), lease_owner: null, lease_until: null }).execute();
      return;
    }
    const until = new Date(Date.now() + next.ms).toISOString();
    await db
      .insertInto("job_pauses")
      .values({ kind, paused_until: until })
      .onConflict((conflict) =>
        conflict.column("kind").doUpdateSet({ paused_until: until }).where("job_pauses.paused_until", "<", until),
      )
      .execute();
    await ours.set({ run_at: until, lease_owner: null, lease_until: null }).execute();
  }

  /** Keeps the leases of the jobs running here. */
  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    try {
      await (
        await this.db()
      )
        .updateTable("jobs")
        .set({ lease_until: new Date(Date.now() + this.leaseMs).toISOString() })
        .where("id", "in", [...this.held])
        .where("lease_owner", "=", this.owner)
        .execute();
    } catch (error) {
      logEvent("error", "jobs_heartbeat_failed", { error: describeError(error) });
    }
  }
}

/** The stored payload; undefined when it is not JSON (the kind's schema then refuses it). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
