// The hourly allowance of bulk checks, per user: every distinct code of a batch counts (refused ones too: they cost
// no upstream call, but they cost the store, and a free kind of input is a free way to fill it), codes a cancel
// left unchecked are given back, a re-check of failed rows costs its codes too, and no user starts more than
// BULK_MAX_JOBS_PER_DAY jobs in 24 hours.
import "server-only";

import { sql } from "kysely";

import { isPostgres, type Db } from "@/lib/db";

export const BULK_ALLOWANCE_WINDOW_MS = 3_600_000;
/**
 * Jobs one user may start in a rolling 24 hours, whatever their size: with the codes per job (500) and the hourly
 * allowance, it bounds what one account can make the store keep for the 7 days jobs are kept.
 */
export const BULK_MAX_JOBS_PER_DAY = 200;
const DAY_MS = 86_400_000;

export interface AllowanceUse {
  /** Checks charged in the window, by job, oldest first: a job's charge leaves the window an hour after it began. */
  jobs: Array<{ createdAt: string; charged: number }>;
}

export type AllowanceDecision =
  { allowed: true; left: number } | { allowed: false; left: number; limit: number; needed: number; runAt: Date | null };

/**
 * Codes a user submitted through bulk jobs in the last hour. Every distinct code counts, refused ones too: they
 * cost no upstream call, but they cost the store, and a free kind of input is a free way to fill it. Codes a
 * cancel left unchecked were never sent: they are given back.
 */
export async function allowanceUse(db: Db, userId: string, now: Date): Promise<AllowanceUse> {
  const since = new Date(now.getTime() - BULK_ALLOWANCE_WINDOW_MS).toISOString();
  const rows = await db
    .selectFrom("bulk_jobs as j")
    .innerJoin("bulk_job_codes as c", "c.job_id", "j.id")
    .select((eb) => ["j.created_at as createdAt", eb.fn.countAll().as("charged")])
    .where("j.user_id", "=", userId)
    .where("j.created_at", ">", since)
    .where("c.status", "!=", "cancelled")
    .groupBy(["j.id", "j.created_at"])
    .orderBy("j.created_at", "asc")
    .execute();
  // A re-check of failed rows is charged like a batch of that many codes, when it was asked for.
  const rechecks = await db
    .selectFrom("bulk_rechecks")
    .select(["created_at as createdAt", "codes as charged"])
    .where("user_id", "=", userId)
    .where("created_at", ">", since)
    .execute();
  // PostgreSQL returns count(*) as a BIGINT string.
  const charges = [...rows, ...rechecks].map((row) => ({ createdAt: row.createdAt, charged: Number(row.charged) }));
  return { jobs: charges.sort((a, b) => a.createdAt.localeCompare(b.createdAt)) };
}

/** Whether `needed` more checks fit the allowance now, and if not, the first moment they would. */
export function allowanceDecision(limit: number, use: AllowanceUse, needed: number): AllowanceDecision {
  const used = use.jobs.reduce((sum, job) => sum + job.charged, 0);
  const left = Math.max(0, limit - used);
  if (needed <= left) return { allowed: true, left };
  if (needed > limit) return { allowed: false, left, limit, needed, runAt: null };
  // Jobs leave the window oldest first; the batch fits once enough of them have.
  let stillUsed = used;
  for (const job of use.jobs) {
    stillUsed -= job.charged;
    if (stillUsed + needed <= limit) {
      return {
        allowed: false,
        left,
        limit,
        needed,
        runAt: new Date(Date.parse(job.createdAt) + BULK_ALLOWANCE_WINDOW_MS),
      };
    }
  }
  return { allowed: false, left, limit, needed, runAt: null };
}

/** Too many jobs started in the last 24 hours: the next one may start at `runAt`. */
export interface JobsPerDayRefusal {
  jobsPerDay: number;
  runAt: Date;
}

/** The user's jobs of the last 24 hours, oldest first: when there are too many, the oldest leaving lets one in. */
async function jobsToday(db: Db, userId: string, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom("bulk_jobs")
    .select("created_at")
    .where("user_id", "=", userId)
    .where("created_at", ">", new Date(now.getTime() - DAY_MS).toISOString())
    .orderBy("created_at", "asc")
    .execute();
  return rows.map((row) => row.created_at);
}

/**
 * Why a batch of `needed` codes may not start now, or null when it may. Run it in the write transaction that
 * inserts the job: SQLite's runs one at a time; on PostgreSQL the rows counted are not locked, so a per-user
 * advisory lock (released at commit) keeps two batches sent at once from both fitting.
 */
export async function allowanceRefusal(
  trx: Db,
  {
    userId,
    needed,
    limitPerHour,
    now,
    countJob = true,
  }: {
    userId: string;
    needed: number;
    limitPerHour: number;
    now: Date;
    /** false: a re-check, not a new job. */ countJob?: boolean;
  },
): Promise<{ decision: Extract<AllowanceDecision, { allowed: false }> } | { tooManyJobs: JobsPerDayRefusal } | null> {
  if (isPostgres(trx))
    await sql`select pg_advisory_xact_lock(hashtext(${`gatehouse bulk allowance ${userId}`}))`.execute(trx);
  const today = countJob ? await jobsToday(trx, userId, now) : [];
  if (today.length >= BULK_MAX_JOBS_PER_DAY) {
    const oldest = today[today.length - BULK_MAX_JOBS_PER_DAY]!;
    return { tooManyJobs: { jobsPerDay: BULK_MAX_JOBS_PER_DAY, runAt: new Date(Date.parse(oldest) + DAY_MS) } };
  }
  const decision = allowanceDecision(limitPerHour, await allowanceUse(trx, userId, now), needed);
  return decision.allowed ? null : { decision };
}
