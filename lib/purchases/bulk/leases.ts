// How a runner holds the jobs it works on: by lease (renewed while it works, let go at shutdown), so that a
// process that dies lets its jobs go after LEASE_MS and another process takes them up.
import "server-only";

import type { Db } from "@/lib/db";

import { ACTIVE_STATUSES, isActive, type BulkUser } from "./jobs";

export interface ClaimedJob {
  id: string;
  user: BulkUser;
}

/**
 * Takes the oldest active job that no live process holds: its lease is free, expired, or already ours (a
 * restart of this process). The lease must be renewed (renewLeases) or another process may take the job over.
 */
export async function claimBulkJob(
  db: Db,
  owner: string,
  leaseMs: number,
  now = new Date(),
  skip: readonly string[] = [],
): Promise<ClaimedJob | null> {
  const at = now.toISOString();
  let query = db
    .selectFrom("bulk_jobs")
    .select(["id", "user_id", "user_email"])
    .where("status", "in", [...ACTIVE_STATUSES])
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at), eb("lease_owner", "=", owner)]));
  if (skip.length > 0) query = query.where("id", "not in", [...skip]);
  const candidates = await query.orderBy("created_at", "asc").limit(5).execute();
  for (const candidate of candidates) {
    const result = await db
      .updateTable("bulk_jobs")
      .set((eb) => ({
        lease_owner: owner,
        lease_until: new Date(now.getTime() + leaseMs).toISOString(),
        status: eb.case().when("status", "=", "queued").then("running").else(eb.ref("status")).end(),
        started_at: eb.fn.coalesce("started_at", eb.val(at)),
      }))
      .where("id", "=", candidate.id)
      .where("status", "in", [...ACTIVE_STATUSES])
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at), eb("lease_owner", "=", owner)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1)
      return { id: candidate.id, user: { id: candidate.user_id, email: candidate.user_email } };
  }
  return null;
}

/** Whether the job is still one to work on (not cancelled, not deleted, and the lease still ours). */
export async function jobStillOurs(db: Db, jobId: string, owner: string): Promise<boolean> {
  const job = await db
    .selectFrom("bulk_jobs")
    .select(["status", "lease_owner"])
    .where("id", "=", jobId)
    .executeTakeFirst();
  return !!job && job.lease_owner === owner && isActive(job.status);
}

export async function renewLeases(
  db: Db,
  owner: string,
  jobIds: readonly string[],
  leaseMs: number,
  now = new Date(),
): Promise<void> {
  if (jobIds.length === 0) return;
  await db
    .updateTable("bulk_jobs")
    .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where("id", "in", [...jobIds])
    .where("lease_owner", "=", owner)
    .execute();
}

/** Marks jobs as waiting for the upstream until `until`, or running again (null). */
export async function setWaiting(db: Db, owner: string, jobIds: readonly string[], until: Date | null): Promise<void> {
  if (jobIds.length === 0) return;
  await db
    .updateTable("bulk_jobs")
    .set({ status: until ? "waiting" : "running", waiting_until: until ? until.toISOString() : null })
    .where("id", "in", [...jobIds])
    .where("lease_owner", "=", owner)
    .where("status", "in", ["running", "waiting"])
    .execute();
}

/** Ends a job whose codes all have a result. */
export async function finishJob(db: Db, jobId: string, owner: string, now = new Date()): Promise<void> {
  await db
    .updateTable("bulk_jobs")
    .set({ status: "done", finished_at: now.toISOString(), waiting_until: null, lease_owner: null, lease_until: null })
    .where("id", "=", jobId)
    .where("lease_owner", "=", owner)
    .where("status", "in", [...ACTIVE_STATUSES])
    .execute();
}

/** Lets go of every job this process holds (shutdown), so that the next process resumes them at once. */
export async function releaseLeases(db: Db, owner: string): Promise<void> {
  await db
    .updateTable("bulk_jobs")
    .set({ lease_owner: null, lease_until: null })
    .where("lease_owner", "=", owner)
    .execute();
}
