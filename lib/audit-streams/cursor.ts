// Each destination's place in the audit log, kept in the store (audit_stream_cursors), and the delivery log
// (audit_stream_deliveries). A row passes a destination's cursor only after the destination accepted the batch
// holding it. An instance sends to a destination only while it holds the cursor's lease (a conditional UPDATE: one
// instance wins), and moves the cursor only from where it read it, so two instances never send the same rows at once
// and a lease that lapsed mid-batch cannot move the cursor under another's feet.
//
// Rows that commit late. An audit row's id is taken when it is inserted, but it becomes visible when its
// transaction commits: on PostgreSQL a row with a lower id may appear after a higher one (SQLite has one writer, so
// ids appear in order). The cursor therefore takes rows only up to the first gap in the ids after it, unless the row
// after the gap is older than SETTLE_MS — then the missing id is taken for a rolled-back insert (a serial number is
// never given back) and skipped. A transaction that writes an audit row and stays open longer than SETTLE_MS could
// be skipped; Gatehouse's own are a statement or two long. (An outbox written in the audit row's transaction would
// close that window, at the cost of a second write on every audit row and of changing every caller's transaction;
// the settle time is kept instead, and said in docs/operations.md.)
import "server-only";

import { sql } from "kysely";

import { auditRowsAfter, type AuditRecord } from "@/lib/auth/audit";
import type { Db } from "@/lib/db";

export const DESTINATIONS = ["syslog", "http"] as const;
export type DestinationName = (typeof DESTINATIONS)[number];

/** A row after a gap in the ids is sent once it is this old (the gap's row, if it ever comes, is then skipped). */
export const SETTLE_MS = 30_000;
const DAY_MS = 86_400_000;

export interface HeldCursor {
  destination: DestinationName;
  lastId: number;
  failures: number;
  owner: string;
}

/**
 * Takes the destination's lease for `leaseMs` when no other instance holds it and its backoff is over; null otherwise.
 * The cursor's row is made (at 0: the whole log is sent first) the first time.
 */
export async function claimCursor(
  db: Db,
  destination: DestinationName,
  owner: string,
  { now = new Date(), leaseMs }: { now?: Date; leaseMs: number },
): Promise<HeldCursor | null> {
  await db
    .insertInto("audit_stream_cursors")
    .values({ destination, last_id: 0 })
    .onConflict((conflict) => conflict.column("destination").doNothing())
    .execute();
  const at = now.toISOString();
  const claimed = await db
    .updateTable("audit_stream_cursors")
    .set({ lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where("destination", "=", destination)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at)]))
    .where((eb) => eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", at)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  const row = await db
    .selectFrom("audit_stream_cursors")
    .select(["last_id", "failures"])
    .where("destination", "=", destination)
    .executeTakeFirstOrThrow();
  return { destination, lastId: Number(row.last_id), failures: Number(row.failures), owner };
}

/** Lets go of the lease (the batch is done, sent or not). */
export async function releaseCursor(db: Db, held: HeldCursor): Promise<void> {
  await db
    .updateTable("audit_stream_cursors")
    .set({ lease_owner: null, lease_until: null })
    .where("destination", "=", held.destination)
    .where("lease_owner", "=", held.owner)
    .execute();
}

/**
 * The next rows to send after `afterId`, at most `limit`, in id order: up to the first gap in the ids that is younger
 * than `settleMs` (see above).
 */
export async function rowsToSend(
  db: Db,
  afterId: number,
  limit: number,
  { now = new Date(), settleMs = SETTLE_MS }: { now?: Date; settleMs?: number } = {},
): Promise<AuditRecord[]> {
  const rows = await auditRowsAfter(db, {}, afterId, limit);
  const settled = now.getTime() - settleMs;
  const kept: AuditRecord[] = [];
  let previous = afterId;
  for (const row of rows) {
    if (row.id !== previous + 1 && Date.parse(row.at) > settled) break;
    kept.push(row);
    previous = row.id;
  }
  return kept;
}

/** Records that the destination accepted rows up to `toId`; false when the lease was lost (nothing changed). */
export async function advanceCursor(db: Db, held: HeldCursor, toId: number, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("audit_stream_cursors")
    .set({ last_id: toId, failures: 0, next_attempt_at: null, last_success_at: now.toISOString() })
    .where("destination", "=", held.destination)
    .where("lease_owner", "=", held.owner)
    .where("last_id", "=", held.lastId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  held.lastId = toId;
  held.failures = 0;
  return true;
}

/** Records a failed batch: the cursor stays, and the next attempt waits `backoffMs`. */
export async function recordFailure(
  db: Db,
  held: HeldCursor,
  error: string,
  backoffMs: number,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable("audit_stream_cursors")
    .set({
      failures: sql<number>`failures + 1`,
      next_attempt_at: new Date(now.getTime() + backoffMs).toISOString(),
      last_error: error,
      last_error_at: now.toISOString(),
    })
    .where("destination", "=", held.destination)
    .where("lease_owner", "=", held.owner)
    .execute();
}

export interface DeliveryEntry {
  destination: DestinationName;
  firstId: number;
  lastId: number;
  count: number;
  status: "delivered" | "failed";
  error: string | null;
  attemptedAt: Date;
  durationMs: number;
}

export async function logDelivery(db: Db, entry: DeliveryEntry): Promise<void> {
  await db
    .insertInto("audit_stream_deliveries")
    .values({
      destination: entry.destination,
      first_id: entry.firstId,
      last_id: entry.lastId,
      count: entry.count,
      status: entry.status,
      error: entry.error,
      attempted_at: entry.attemptedAt.toISOString(),
      duration_ms: Math.round(entry.durationMs),
    })
    .execute();
}

export interface DestinationStatus {
  destination: DestinationName;
  /** The last row it accepted (0: none). */
  lastId: number;
  /** Audit rows written after it: what it has yet to receive. */
  lag: number;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Failed batches in a row, and when the next attempt is due after them. */
  failures: number;
  nextAttemptAt: string | null;
  recent: Array<Omit<DeliveryEntry, "attemptedAt"> & { attemptedAt: string }>;
}

/** What the audit page shows of each destination: its place, its lag, its last success and error, its last batches. */
export async function streamStatus(
  db: Db,
  destinations: readonly DestinationName[],
  recentCount = 10,
): Promise<DestinationStatus[]> {
  return Promise.all(
    destinations.map(async (destination) => {
      const cursor = await db
        .selectFrom("audit_stream_cursors")
        .selectAll()
        .where("destination", "=", destination)
        .executeTakeFirst();
      const lastId = Number(cursor?.last_id ?? 0);
      const lag = await db
        .selectFrom("audit_log")
        .select(sql<number>`count(*)`.as("n"))
        .where("id", ">", lastId)
        .executeTakeFirstOrThrow();
      const recent = await db
        .selectFrom("audit_stream_deliveries")
        .selectAll()
        .where("destination", "=", destination)
        .orderBy("id", "desc")
        .limit(recentCount)
        .execute();
      return {
        destination,
        lastId,
        lag: Number(lag.n),
        lastSuccessAt: cursor?.last_success_at ?? null,
        lastError: cursor?.last_error ?? null,
        lastErrorAt: cursor?.last_error_at ?? null,
        failures: Number(cursor?.failures ?? 0),
        nextAttemptAt: cursor?.next_attempt_at ?? null,
        recent: recent.map((row) => ({
          destination,
          firstId: Number(row.first_id),
          lastId: Number(row.last_id),
          count: Number(row.count),
          status: row.status as "delivered" | "failed",
          error: row.error,
          attemptedAt: row.attempted_at,
          durationMs: Number(row.duration_ms),
        })),
      };
    }),
  );
}

/**
 * Deletes audit rows older than `retentionDays`, never one that an enabled destination has not accepted yet (a
 * destination without a cursor has accepted none), in chunks. Returns the rows deleted.
 */
export async function pruneAuditLog(
  db: Db,
  retentionDays: number,
  enabled: readonly DestinationName[],
  { now = new Date(), chunk = 5000 }: { now?: Date; chunk?: number } = {},
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  let ceiling: number | null = null;
  if (enabled.length > 0) {
    const cursors = await db
      .selectFrom("audit_stream_cursors")
      .select(["destination", "last_id"])
      .where("destination", "in", enabled)
      .execute();
    const accepted = new Map(cursors.map((row) => [row.destination, Number(row.last_id)]));
    ceiling = Math.min(...enabled.map((destination) => accepted.get(destination) ?? 0));
  }
  let removed = 0;
  for (;;) {
    let query = db.selectFrom("audit_log").select("id").where("at", "<", cutoff);
    if (ceiling !== null) query = query.where("id", "<=", ceiling);
    const ids = (await query.orderBy("id").limit(chunk).execute()).map((row) => row.id);
    if (ids.length === 0) break;
    const result = await db.deleteFrom("audit_log").where("id", "in", ids).executeTakeFirst();
    removed += Number(result.numDeletedRows);
    if (ids.length < chunk) break;
  }
  return removed;
}

/** Deletes the delivery log's rows older than `retentionDays`. */
export async function pruneDeliveryLog(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  const result = await db.deleteFrom("audit_stream_deliveries").where("attempted_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
