// Audit streaming's cursors and delivery log on SQLite and PostgreSQL: one instance at a time holds a destination's
// lease; rows are read in id order up to a gap that has not settled (a row that commits late is not skipped); the
// cursor moves only past rows a destination took and only from where it was read; a failure leaves it and backs
// off; a batch through sendBatch that fails is sent again whole, so nothing is lost; retention never deletes a row an
// enabled destination has not taken; the delivery log is pruned by age.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";

import {
  advanceCursor,
  claimCursor,
  logDelivery,
  pruneAuditLog,
  pruneDeliveryLog,
  recordFailure,
  releaseCursor,
  rowsToSend,
  streamStatus,
} from "@/lib/audit-streams/cursor";
import { BATCH_ROWS, sendBatch } from "@/lib/audit-streams/stream-job";
import type { AuditRecordOutput } from "@/lib/contract/audit";
import type { Db } from "@/lib/db";

import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const BACKENDS = bothBackends();
const NOW = new Date("2026-11-28T12:00:00.000Z");
const LEASE = { now: NOW, leaseMs: 60_000 };

/** Audit rows with these ids, written `ageMs` before NOW. */
async function writeRows(db: Db, ids: readonly number[], ageMs = 60_000): Promise<void> {
  if (ids.length === 0) return;
  await db
    .insertInto("audit_log")
    .values(
      ids.map((id) => ({
        id,
        at: new Date(NOW.getTime() - ageMs).toISOString(),
        user_id: null,
        user_email: null,
        action: "report.create",
        target_type: "report",
        target_id: String(id),
        target_label: null,
        outcome: "success",
        request_id: null,
        detail: null,
        repeat_count: 1,
        last_at: null,
      })) as never,
    )
    .execute();
}

const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((row) => row.id);

describe.each(BACKENDS)("on $name", (backend: Backend) => {
  const store = useStore(backend);

  it("lets one instance at a time hold a destination, another once the lease is let go or lapses", async () => {
    const { db } = store();
    const a = await claimCursor(db, "http", "a", LEASE);
    expect(a).toMatchObject({ destination: "http", lastId: 0, failures: 0 });
    expect(await claimCursor(db, "http", "b", LEASE)).toBeNull();
    // Another destination is another cursor.
    expect(await claimCursor(db, "syslog", "b", LEASE)).not.toBeNull();
    await releaseCursor(db, a!);
    expect(await claimCursor(db, "http", "b", LEASE)).not.toBeNull();
    // b dies holding it: its lease lapses and c takes it.
    expect(await claimCursor(db, "http", "c", LEASE)).toBeNull();
    expect(
      await claimCursor(db, "http", "c", { now: new Date(NOW.getTime() + 60_001), leaseMs: 60_000 }),
    ).not.toBeNull();
  });

  it("reads rows in id order up to a gap that has not settled, and past one that has", async () => {
    const { db } = store();
    await writeRows(db, [1, 2, 3]);
    // Id 4 is taken by a transaction not yet committed; 5 and 6 are fresh.
    await writeRows(db, [5, 6], 1_000);
    expect(ids(await rowsToSend(db, 0, 100, { now: NOW }))).toEqual([1, 2, 3]);
    // The late row commits: everything follows in order.
    await writeRows(db, [4], 2_000);
    expect(ids(await rowsToSend(db, 3, 100, { now: NOW }))).toEqual([4, 5, 6]);
    // A gap whose next row is older than the settle time was a rolled-back insert: it is skipped.
    await writeRows(db, [9, 10], 31_000);
    expect(ids(await rowsToSend(db, 6, 100, { now: NOW }))).toEqual([9, 10]);
    expect(ids(await rowsToSend(db, 0, 2, { now: NOW }))).toEqual([1, 2]);
  });

  it("moves the cursor only from where it was read, and a failure leaves it and backs off", async () => {
    const { db } = store();
    const held = (await claimCursor(db, "syslog", "a", LEASE))!;
    await recordFailure(db, held, "connect ECONNREFUSED 127.0.0.1:5514", 2_000, NOW);
    await releaseCursor(db, held);
    // Backing off: no one takes it before the next attempt is due.
    expect(await claimCursor(db, "syslog", "b", LEASE)).toBeNull();
    const later = { now: new Date(NOW.getTime() + 2_000), leaseMs: 60_000 };
    const again = (await claimCursor(db, "syslog", "b", later))!;
    expect(again).toMatchObject({ lastId: 0, failures: 1 });
    // A stale holder cannot move it.
    expect(await advanceCursor(db, { ...again, owner: "a" }, 10, NOW)).toBe(false);
    expect(await advanceCursor(db, again, 10, NOW)).toBe(true);
    expect(await advanceCursor(db, { ...again, lastId: 0 }, 20, NOW)).toBe(false);
    const [status] = await streamStatus(db, ["syslog"]);
    expect(status).toMatchObject({
      lastId: 10,
      failures: 0,
      lastSuccessAt: NOW.toISOString(),
      lastError: "connect ECONNREFUSED 127.0.0.1:5514",
    });
  });

  it("sends a failed batch again whole: every row reaches the destination, in order, the log says what happened", async () => {
    const { db } = store();
    await writeRows(
      db,
      Array.from({ length: BATCH_ROWS + 20 }, (_, n) => n + 1),
    );
    const received: AuditRecordOutput[] = [];
    let up = false;
    const send = async (rows: readonly AuditRecordOutput[]) => {
      if (!up) throw new Error("connect ECONNREFUSED 127.0.0.1:5514");
      received.push(...rows);
    };
    let clock = NOW.getTime();
    const deps = { owner: "a", now: () => new Date(clock) };
    expect(await sendBatch(db, "syslog", send, deps)).toEqual({ sent: 0, failed: true, more: false });
    // Backing off: a tick before the next attempt sends nothing.
    expect(await sendBatch(db, "syslog", send, deps)).toEqual({ sent: 0, failed: false, more: false });
    up = true;
    clock += 1_000;
    expect(await sendBatch(db, "syslog", send, deps)).toEqual({ sent: BATCH_ROWS, failed: false, more: true });
    expect(await sendBatch(db, "syslog", send, deps)).toEqual({ sent: 20, failed: false, more: false });
    expect(await sendBatch(db, "syslog", send, deps)).toEqual({ sent: 0, failed: false, more: false });
    expect(received.map((row) => row.id)).toEqual(Array.from({ length: BATCH_ROWS + 20 }, (_, n) => n + 1));
    const [status] = await streamStatus(db, ["syslog"]);
    expect(status!.lag).toBe(0);
    expect(status!.recent.map((d) => [d.status, d.firstId, d.lastId, d.count])).toEqual([
      ["delivered", BATCH_ROWS + 1, BATCH_ROWS + 20, 20],
      ["delivered", 1, BATCH_ROWS, BATCH_ROWS],
      ["failed", 1, BATCH_ROWS, BATCH_ROWS],
    ]);
    expect(status!.recent[2]!.error).toBe("connect ECONNREFUSED 127.0.0.1:5514");
  });

  it("prunes old audit rows only up to what every enabled destination took, and all of them when none is enabled", async () => {
    const { db } = store();
    const DAY = 86_400_000;
    await writeRows(db, [1, 2, 3, 4], 40 * DAY);
    await writeRows(db, [5], 1 * DAY);
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("audit_log")
            .select(sql<number>`count(*)`.as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // An enabled destination that has taken nothing yet: nothing goes.
    expect(await pruneAuditLog(db, 30, ["http"], { now: NOW })).toBe(0);
    const held = (await claimCursor(db, "http", "a", LEASE))!;
    await advanceCursor(db, held, 2, NOW);
    expect(await pruneAuditLog(db, 30, ["http"], { now: NOW })).toBe(2);
    expect(await count()).toBe(3);
    // A second destination behind the first holds back what it has not taken.
    expect(await pruneAuditLog(db, 30, ["http", "syslog"], { now: NOW })).toBe(0);
    // With no destination enabled, the age alone decides (in chunks).
    expect(await pruneAuditLog(db, 30, [], { now: NOW, chunk: 1 })).toBe(2);
    expect(ids(await db.selectFrom("audit_log").select("id").execute())).toEqual([5]);
  });

  it("prunes the delivery log by age", async () => {
    const { db } = store();
    const entry = {
      destination: "http" as const,
      firstId: 1,
      lastId: 1,
      count: 1,
      status: "delivered" as const,
      error: null,
      durationMs: 1,
    };
    await logDelivery(db, { ...entry, attemptedAt: new Date(NOW.getTime() - 31 * 86_400_000) });
    await logDelivery(db, { ...entry, attemptedAt: NOW });
    expect(await pruneDeliveryLog(db, 30, NOW)).toBe(1);
    const [status] = await streamStatus(db, ["http"]);
    expect(status!.recent).toHaveLength(1);
  });
});
