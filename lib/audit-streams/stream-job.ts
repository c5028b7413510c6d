// Audit streaming as a kind of job of the one job system (lib/jobs): per enabled destination, a tick every TICK_MS
// whose id names the destination and the slot, so every instance triggering the same slot makes one job; each tick
// queues the next first (the chain goes on whatever this one meets), then sends one batch:
//   1. takes the destination's cursor lease (./cursor.ts) — held by another instance, or backing off: nothing to do;
//   2. reads up to BATCH_ROWS audit rows after the cursor, in id order, stopping at a gap that has not settled;
//   3. sends them (./syslog.ts or ./http.ts) and, only once the destination took them, moves the cursor past them;
//      a failure leaves the cursor, records the error, and the next attempt waits retryBackoffMs(failures in a row)
//      — 1 s, 2 s, 4 s … at most a minute — so a batch is retried until it is taken, never dropped;
//   4. logs the batch in the delivery log, and answers `continue` when a full batch went (there may be more).
// At least once: a batch whose acceptance was not seen (a connection that broke after the receiver read it, a 2xx
// lost on the way back) is sent again; every message carries the audit row's id to de-duplicate by.
import "server-only";

import { z } from "zod";

import { auditRecordOutput } from "@/lib/auth/audit-text";
import type { AuditStreamsConfig } from "@/lib/config/audit-streams";
import type { AuditRecordOutput } from "@/lib/contract/audit";
import type { Db } from "@/lib/db";
import { defineJob, type JobDefinition, type JobOutcome } from "@/lib/jobs";
import { perTargetCap } from "@/lib/jobs/per-target-cap";
import { retryBackoffMs } from "@/lib/jobs/run";
import { logEvent } from "@/lib/log";

import {
  advanceCursor,
  claimCursor,
  DESTINATIONS,
  logDelivery,
  recordFailure,
  releaseCursor,
  rowsToSend,
  type DestinationName,
} from "./cursor";
import { sendHttp } from "./http";
import { sendSyslog, syslogMessage } from "./syslog";

const KIND = "audit-stream";
/** A destination hears of new rows within this time (plus a batch's sending). */
export const TICK_MS = 2_000;
/** Rows sent at once, at most. */
export const BATCH_ROWS = 500;
/** How long a claimed cursor is ours: well past a batch's worst (the transports' 10 s timeouts). */
export const STREAM_LEASE_MS = 60_000;
/** A tick for a destination already sending in this process asks again after this long. */
const BUSY_WAIT_MS = 500;

export const tickPayload = z.object({ destination: z.enum(DESTINATIONS), slot: z.number().int().min(0) });
export type TickPayload = z.infer<typeof tickPayload>;

export type Senders = {
  [D in DestinationName]: (
    target: NonNullable<AuditStreamsConfig[D]>,
    rows: readonly AuditRecordOutput[],
  ) => Promise<void>;
};

export const SENDERS: Senders = {
  syslog: (target, rows) =>
    sendSyslog(
      target,
      rows.map((row) => syslogMessage(row)),
    ),
  http: (target, rows) => sendHttp(target, rows),
};

export interface StreamDeps {
  db: () => Promise<Db>;
  /** The destinations as configured (getConfig().auditStreams). */
  config: () => Promise<Pick<AuditStreamsConfig, "syslog" | "http">>;
  /** Adds a tick (trigger() in production). */
  queueTick: (payload: TickPayload, options: { id: string; runAt: Date }) => Promise<void>;
  /** This process's name on the cursors' leases. */
  owner: string;
  senders?: Senders;
  now?: () => Date;
  settleMs?: number;
}

/** The tick of `destination` for the slot holding `atMs`. */
export function tickJob(
  destination: DestinationName,
  atMs: number,
): { payload: TickPayload; options: { id: string; runAt: Date } } {
  const slot = Math.floor(atMs / TICK_MS);
  return {
    payload: { destination, slot },
    options: { id: `audit-stream-${destination}-${slot}`, runAt: new Date(slot * TICK_MS) },
  };
}

/** The destinations the configuration enables. */
export const enabledDestinations = (config: Pick<AuditStreamsConfig, "syslog" | "http">): DestinationName[] =>
  DESTINATIONS.filter((destination) => config[destination] !== null);

export interface BatchResult {
  /** Rows the destination took (0: nothing to send, the lease held elsewhere, or a failure). */
  sent: number;
  failed: boolean;
  /** A full batch went: there may be more right behind it. */
  more: boolean;
}

/** One batch to one destination (steps 1–4 above). */
export async function sendBatch(
  db: Db,
  destination: DestinationName,
  send: (rows: readonly AuditRecordOutput[]) => Promise<void>,
  { owner, now = () => new Date(), settleMs }: Pick<StreamDeps, "owner" | "now" | "settleMs">,
): Promise<BatchResult> {
  const held = await claimCursor(db, destination, owner, { now: now(), leaseMs: STREAM_LEASE_MS });
  if (!held) return { sent: 0, failed: false, more: false };
  try {
    const rows = await rowsToSend(db, held.lastId, BATCH_ROWS, { now: now(), settleMs });
    if (rows.length === 0) return { sent: 0, failed: false, more: false };
    const firstId = rows[0]!.id;
    const lastId = rows.at(-1)!.id;
    const attemptedAt = now();
    const started = performance.now();
    try {
      await send(rows.map(auditRecordOutput));
    } catch (error) {
      const sentence = errorSentence(error);
      await recordFailure(db, held, sentence, retryBackoffMs(held.failures), now());
      await logDelivery(db, {
        destination,
        firstId,
        lastId,
        count: rows.length,
        status: "failed",
        error: sentence,
        attemptedAt,
        durationMs: performance.now() - started,
      });
      logEvent("warn", "audit_stream_failed", { destination, first_id: firstId, last_id: lastId, error: sentence });
      return { sent: 0, failed: true, more: false };
    }
    const durationMs = performance.now() - started;
    const moved = await advanceCursor(db, held, lastId, now());
    await logDelivery(db, {
      destination,
      firstId,
      lastId,
      count: rows.length,
      status: "delivered",
      error: null,
      attemptedAt,
      durationMs,
    });
    if (!moved) logEvent("warn", "audit_stream_lease_lost", { destination, first_id: firstId, last_id: lastId });
    return { sent: rows.length, failed: false, more: moved && rows.length === BATCH_ROWS };
  } finally {
    await releaseCursor(db, held);
  }
}

/** A failure in a sentence for the delivery log: the transport's own words, short, on one line. */
function errorSentence(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, " ").trim().slice(0, 300) || "the batch was not taken";
}

/** The kind: one tick of one destination. */
export function auditStreamJob(deps: StreamDeps): JobDefinition<TickPayload> {
  const cap = perTargetCap(1, BUSY_WAIT_MS);
  const senders = deps.senders ?? SENDERS;
  return defineJob({
    kind: KIND,
    payload: tickPayload,
    concurrency: DESTINATIONS.length,
    async handle({ destination, slot }): Promise<JobOutcome> {
      const config = await deps.config();
      const target = config[destination];
      // A destination no longer configured (a restart without its variable): its chain ends here.
      if (target === null) return { kind: "done" };
      const next = tickJob(destination, (slot + 1) * TICK_MS);
      await deps.queueTick(next.payload, next.options);
      const db = await deps.db();
      return cap.run(destination, async () => {
        const send = (rows: readonly AuditRecordOutput[]) =>
          (senders[destination] as (t: typeof target, r: readonly AuditRecordOutput[]) => Promise<void>)(target, rows);
        const result = await sendBatch(db, destination, send, deps);
        return result.more ? { kind: "continue" } : { kind: "done" };
      });
    },
  });
}
