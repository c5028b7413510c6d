// The purchase lifecycle's background work (issue 33), one kind of job of the job system (lib/jobs): a tick per
// minute, its id the minute's start, so every instance triggering the same minute makes one job; it triggers the
// next minute's tick first (the chain goes on whatever this one meets), then
//   a. re-checks the codes answered from their last verdict while the item service was down (purchase_rechecks),
//      settling each as any check settles (./lifecycle.ts settleAnswer) and recording it (source "sweep");
//   b. when the admin enabled the sweep: re-checks the enrolled valid codes (known_purchases sealed) whose last
//      verdict is older than `every_days`, oldest first: a refused one is revoked (and leaves the sweep), a valid
//      one gets its new verdict's time and support date;
//   c. sends `purchase.support_expiring` once for each valid purchase whose support ends within the notice period
//      (a moved support date is a new notice), marked first with a conditional UPDATE so that two instances send once.
// Every call of a. and b. takes its slot from the item area's budget of background work (lib/jobs/budget.ts:
// ITEMS_API_CALLS_PER_MINUTE × PURCHASE_SWEEP_MAX_SHARE, shared by every instance through Redis). A tick works at
// most TICK_WORK_MS, then leaves the rest to the next; a failure of the item service ends the tick's asking (the
// codes wait, untouched, for the next one). An admin's "Sweep now" is one more job of the kind, that queues no tick.
import "server-only";

import { setTimeout as wait } from "node:timers/promises";

import { z } from "zod";

import type { PurchaseLifecycleSettings } from "@/lib/contract/purchase-lifecycle";
import type { PurchaseCodeFormat } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { emitEvent } from "@/lib/events";
import { defineJob, type JobDefinition } from "@/lib/jobs";
import type { AreaBudget } from "@/lib/jobs/budget";
import { describeError, logEvent } from "@/lib/log";
import { isUpstreamError, type ItemsClient } from "@/lib/upstream";

import { askItemService, recordCheck, type ItemServiceAnswer } from "./check";
import { lifecycleCodeSealer, lifecycleSettings, settleAnswer, type SettledVerdict } from "./lifecycle";
import { normalisePurchaseCode, purchaseCodeForms } from "./normalise";

/** A tick's slot: the sweep looks for due work this often. */
export const SWEEP_TICK_MS = 60_000;
/** How long one tick may go on asking (waiting for the budget's slots included): less than a slot. */
export const TICK_WORK_MS = 50_000;
/** Rows read at once, at most: a tick asks for no more than its budget allows anyway. */
const MAX_ROWS = 500;
const DAY_MS = 86_400_000;
/** The sweep's checks are Gatehouse's own: no person asked. */
const NOBODY = { id: null, email: null };

export interface SweepDeps {
  db: Db;
  hashKey: string;
  /** The item service's client; null when area B is not configured (nothing is asked then). */
  items: ItemsClient | null;
  format: PurchaseCodeFormat;
  /** The budget every call is taken from: the item API's budget times PURCHASE_SWEEP_MAX_SHARE, shared. */
  budget: AreaBudget;
  /** Calls a minute the budget allows: a tick reads no more rows than it can check. */
  callsPerMinute: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** TICK_WORK_MS unless said (tests). */
  workMs?: number;
}

/** What one tick did, for its log line and the tests. */
export interface SweepTickSummary {
  /** Codes waiting since an outage, asked again and settled. */
  rechecked: number;
  /** Enrolled codes re-verified. */
  swept: number;
  /** Of those two, the codes found revoked. */
  revoked: number;
  /** purchase.support_expiring events sent. */
  notices: number;
  /** Why the asking ended: all due work done, the item service failing, the tick's time spent, or no item service. */
  ended: "done" | "failure" | "time" | "not_configured";
}

/** The rows a tick reads of each kind: what the budget lets it ask in its working time, plus one. */
export function rowsPerTick(callsPerMinute: number, workMs = TICK_WORK_MS): number {
  return Math.min(MAX_ROWS, Math.max(1, Math.ceil((callsPerMinute * workMs) / 60_000) + 1));
}

function dueQuery(db: Db, settings: PurchaseLifecycleSettings, now: Date) {
  const { items, every_days: everyDays } = settings.sweep;
  const query = db
    .selectFrom("known_purchases")
    .where("status", "=", "valid")
    .where("code_sealed", "is not", null)
    .where("verified_at", "<", new Date(now.getTime() - everyDays * DAY_MS).toISOString());
  return items === "all" ? query : query.where("item_id", "in", items);
}

/** The enrolled valid codes due for a re-check (verdict older than every_days, item covered), oldest verdict first. */
export async function dueForSweep(
  db: Db,
  settings: PurchaseLifecycleSettings,
  now: Date,
  limit: number,
): Promise<Array<{ code_hash: string; code_sealed: string | null }>> {
  return dueQuery(db, settings, now)
    .select(["code_hash", "code_sealed"])
    .orderBy("verified_at")
    .orderBy("code_hash")
    .limit(limit)
    .execute();
}

/** How many enrolled codes are due now (0 while the sweep is off). */
export async function dueCount(db: Db, settings: PurchaseLifecycleSettings, now: Date): Promise<number> {
  if (!settings.sweep.enabled) return 0;
  const row = await dueQuery(db, settings, now)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The forms the code may be known in (the lifecycle finds a revocation under any of them). */
function formsOf(code: string, format: PurchaseCodeFormat): string[] {
  const cleaned = normalisePurchaseCode(code, format);
  return cleaned.ok ? purchaseCodeForms(cleaned, format) : [code];
}

/** One tick's work (a., b., c. above). Never throws for the item service's failures: it stops asking. */
export async function sweepTick(deps: SweepDeps): Promise<SweepTickSummary> {
  const { db, hashKey, items, format, budget } = deps;
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? ((ms: number) => wait(ms));
  const workMs = deps.workMs ?? TICK_WORK_MS;
  const started = now().getTime();
  const settings = await lifecycleSettings(db);
  const lifecycle = { db, hashKey, settings };
  const limit = rowsPerTick(deps.callsPerMinute, workMs);
  const summary: SweepTickSummary = { rechecked: 0, swept: 0, revoked: 0, notices: 0, ended: "done" };

  /** The next call's slot, waited for; false when the wait would end past the tick's working time. */
  const slot = async (): Promise<boolean> => {
    for (let ms = await budget.take(); ms > 0; ms = await budget.take()) {
      if (now().getTime() - started + ms > workMs) return false;
      await sleep(ms);
    }
    return true;
  };

  /** Asks the item service about the code and settles and records its answer; null when it failed (logged). */
  const check = async (code: string, codeHash: string): Promise<SettledVerdict | null> => {
    let answer: ItemServiceAnswer;
    try {
      answer = await askItemService(items!, code);
    } catch (error) {
      if (!isUpstreamError(error)) throw error;
      logEvent("warn", "purchase_sweep_upstream_failed", { code_hash: codeHash, error: describeError(error) });
      return null;
    }
    const at = now();
    const settled = await settleAnswer(lifecycle, { code, forms: formsOf(code, format), answer, at });
    const base = { at, user: NOBODY, code, source: "sweep" } as const;
    await recordCheck(
      db,
      hashKey,
      answer.status === "valid"
        ? { ...base, outcome: "valid", reason: null, purchase: answer.purchase }
        : { ...base, outcome: settled.outcome, reason: settled.reason, previous: settled.lifecycle.previously_valid },
      { job: "purchase-sweep" },
    );
    if (settled.outcome === "revoked") summary.revoked++;
    return settled;
  };

  const asking = async (): Promise<SweepTickSummary["ended"]> => {
    if (!items) return "not_configured";
    // a. The codes answered from their last verdict during an outage, in the order they waited.
    const waiting = await db
      .selectFrom("purchase_rechecks")
      .select(["code_hash", "code_sealed"])
      .orderBy("asked_at")
      .orderBy("code_hash")
      .limit(limit)
      .execute();
    for (const row of waiting) {
      const code = lifecycleCodeSealer.open(row.code_sealed, hashKey);
      if (code === null) {
        // Sealed under another key (PURCHASE_CODE_HASH_KEY changed) or altered: it cannot be asked again.
        await db.deleteFrom("purchase_rechecks").where("code_hash", "=", row.code_hash).execute();
        logEvent("error", "purchase_recheck_unreadable", { code_hash: row.code_hash });
        continue;
      }
      if (!(await slot())) return "time";
      if (!(await check(code, row.code_hash))) return "failure";
      await db.deleteFrom("purchase_rechecks").where("code_hash", "=", row.code_hash).execute();
      summary.rechecked++;
    }
    // b. The enrolled valid codes whose verdict is older than every_days, oldest first.
    if (!settings.sweep.enabled) return "done";
    for (const row of await dueForSweep(db, settings, now(), limit)) {
      const code = row.code_sealed === null ? null : lifecycleCodeSealer.open(row.code_sealed, hashKey);
      if (code === null) {
        // Unreadable: forgotten; the code is enrolled again at its next check.
        await db
          .updateTable("known_purchases")
          .set({ code_sealed: null })
          .where("code_hash", "=", row.code_hash)
          .execute();
        logEvent("error", "purchase_sweep_code_unreadable", { code_hash: row.code_hash });
        continue;
      }
      if (!(await slot())) return "time";
      if (!(await check(code, row.code_hash))) return "failure";
      summary.swept++;
    }
    return "done";
  };

  summary.ended = await asking();
  summary.notices = await sendSupportNotices(db, settings, now());
  return summary;
}

/**
 * c. One `purchase.support_expiring` per valid purchase whose support ends within the notice period, for the date it
 * ends (support_notice_for): a moved date is a new notice. Marked before it is sent, conditionally, so that of two
 * instances one sends. Returns the events sent.
 */
export async function sendSupportNotices(db: Db, settings: PurchaseLifecycleSettings, now: Date): Promise<number> {
  const from = now.toISOString();
  const to = new Date(now.getTime() + settings.support_expiring_days * DAY_MS).toISOString();
  const due = await db
    .selectFrom("known_purchases")
    .select(["code_hash", "code_last4", "item_id", "item_name", "license_type", "supported_until"])
    .where("status", "=", "valid")
    .where("supported_until", ">", from)
    .where("supported_until", "<=", to)
    .where((eb) =>
      eb.or([eb("support_notice_for", "is", null), eb("support_notice_for", "!=", eb.ref("supported_until"))]),
    )
    .orderBy("supported_until")
    .limit(MAX_ROWS)
    .execute();
  let sent = 0;
  for (const row of due) {
    const until = row.supported_until!;
    const marked = await db
      .updateTable("known_purchases")
      .set({ support_notice_for: until })
      .where("code_hash", "=", row.code_hash)
      .where("status", "=", "valid")
      .where("supported_until", "=", until)
      .where((eb) => eb.or([eb("support_notice_for", "is", null), eb("support_notice_for", "!=", until)]))
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) continue;
    await emitEvent({
      type: "purchase.support_expiring",
      occurredAt: now,
      data: {
        code_hash: row.code_hash,
        code_last4: row.code_last4,
        item: { id: Number(row.item_id), name: row.item_name },
        license_type: row.license_type,
        supported_until: until,
        days_left: Math.floor((Date.parse(until) - now.getTime()) / DAY_MS),
      },
    });
    sent++;
  }
  return sent;
}

// ---------------------------------------------------------------------------------------------------------
// The kind of job

const tickPayload = z.object({
  slot: z.number().int().describe("The minute's start (ms); a tick queues the next"),
  manual: z.boolean().optional().describe("An admin's Sweep now: queues no next tick"),
});
export type SweepTickPayload = z.infer<typeof tickPayload>;
type Queue = (payload: SweepTickPayload, options: { id: string; runAt?: Date }) => Promise<void>;

export interface SweepJobDeps {
  /** The tick's dependencies, read when it runs (the settings of the moment: the key ring's client, the budget). */
  deps: () => Promise<SweepDeps>;
  /** Adds a tick's job (trigger() in production). */
  queueTick: Queue;
  now?: () => Date;
}

/** The tick of the minute `at` falls in: its payload and its job's id and time. */
export function sweepTickJob(at: number): { payload: SweepTickPayload; options: { id: string; runAt: Date } } {
  const slot = Math.floor(at / SWEEP_TICK_MS) * SWEEP_TICK_MS;
  return { payload: { slot }, options: { id: `purchase-sweep-tick-${slot}`, runAt: new Date(slot) } };
}

/** An admin's "Sweep now": a job of its own (the kind runs one at a time, so it follows a tick under way). */
export function sweepNowJob(at: number): { payload: SweepTickPayload; options: { id: string } } {
  return { payload: { slot: at, manual: true }, options: { id: `purchase-sweep-now-${at}` } };
}

/** The kind: one minute's sweep (or an admin's Sweep now). */
export function purchaseSweepJob(jobDeps: SweepJobDeps): JobDefinition<SweepTickPayload> {
  return defineJob({
    kind: "purchase-sweep",
    payload: tickPayload,
    concurrency: 1,
    // Its first step keeps the chain of ticks going: never dropped for want of a retry.
    maxRetries: Number.MAX_SAFE_INTEGER,
    async handle({ slot, manual }) {
      const now = (jobDeps.now ?? (() => new Date()))();
      if (!manual) {
        // The minute after this one, or after now when this tick ran late (never this minute again).
        const next = sweepTickJob(Math.max(slot, now.getTime()) + SWEEP_TICK_MS);
        await jobDeps.queueTick(next.payload, next.options);
      }
      try {
        const summary = await sweepTick(await jobDeps.deps());
        if (summary.rechecked + summary.swept + summary.notices > 0 || summary.ended === "failure")
          logEvent("info", "purchase_sweep_tick", { manual: manual === true, ...summary });
      } catch (error) {
        // The next tick looks again.
        logEvent("error", "purchase_sweep_tick_failed", { error: describeError(error) });
      }
      return { kind: "done" };
    },
  });
}
