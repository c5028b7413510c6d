// Each API token's usage: requests per UTC day, by operation and outcome, with the upstream calls made for them
// (area A, area B). Counted in memory per instance on the request path (no store write per request) and flushed
// every few seconds, and once more on shutdown, as one upsert that ADDS to the day's row: two instances' counts
// add up. Read back for the tokens page: 30 days per token, and the tokens that used the most of each upstream.
import "server-only";

import { sql } from "kysely";

import type { Area } from "@/lib/contract/areas";
import { TOKEN_USAGE_DAYS, TOKEN_USAGE_KEEP_DAYS, type TokenUsageOutcome } from "@/lib/contract/values";
import { writeTransaction, type Db } from "@/lib/db";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent } from "@/lib/log";
import { processWide } from "@/lib/process-wide";

const DAY_MS = 86_400_000;
/** How often an instance writes what it counted. */
export const USAGE_FLUSH_EVERY_MS = 5_000;
/** Old rows are deleted at most this often (by whichever instance flushes). */
const PRUNE_EVERY_MS = 3_600_000;
/** Rows per insert statement (SQLite's bound variables: 7 a row). */
const ROWS_PER_STATEMENT = 100;

export interface TokenUse {
  tokenId: string;
  operation: string;
  outcome: TokenUsageOutcome;
  /** Upstream calls made while answering it, per area. */
  upstreamCalls: Partial<Record<Area, number>>;
  at?: Date;
}

interface Counted {
  tokenId: string;
  day: string;
  operation: string;
  outcome: string;
  count: number;
  reports: number;
  items: number;
}

interface UsageState {
  pending: Map<string, Counted>;
  db: Db | null;
  timer: ReturnType<typeof setInterval> | null;
  flushing: Promise<void> | null;
  lastPrune: number;
  shutdownHooked: boolean;
}

function state(): UsageState {
  return processWide<UsageState>("tokens.usage", () => ({
    pending: new Map(),
    db: null,
    timer: null,
    flushing: null,
    lastPrune: 0,
    shutdownHooked: false,
  }));
}

export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * Counts one request with a token, in this process; written to `db` by the next flush (at most USAGE_FLUSH_EVERY_MS
 * later, or on shutdown). Cheap: a map entry and a timer started once.
 */
export function recordTokenUse(db: Db, use: TokenUse): void {
  const current = state();
  const day = dayOf(use.at ?? new Date());
  const key = `${use.tokenId}\u0000${day}\u0000${use.operation}\u0000${use.outcome}`;
  let entry = current.pending.get(key);
  if (!entry) {
    entry = {
      tokenId: use.tokenId,
      day,
      operation: use.operation,
      outcome: use.outcome,
      count: 0,
      reports: 0,
      items: 0,
    };
    current.pending.set(key, entry);
  }
  entry.count += 1;
  entry.reports += use.upstreamCalls.reports ?? 0;
  entry.items += use.upstreamCalls.items ?? 0;
  current.db = db;
  if (!current.timer) {
    current.timer = setInterval(() => void flushTokenUsage(), USAGE_FLUSH_EVERY_MS);
    current.timer.unref();
  }
  if (!current.shutdownHooked) {
    current.shutdownHooked = true;
    onShutdown("token usage", async () => {
      if (current.timer) clearInterval(current.timer);
      current.timer = null;
      await flushTokenUsage();
    });
  }
}

/** What this process counted and has not written yet: none after a flush (tests). */
export function pendingTokenUses(): number {
  let total = 0;
  for (const entry of state().pending.values()) total += entry.count;
  return total;
}

/**
 * Writes what this process counted, adding it to the rows there are (so every instance's counts add up), and
 * deletes rows older than TOKEN_USAGE_KEEP_DAYS about once an hour. A failed write keeps the counts for the next
 * flush. One flush at a time; a call while one runs waits for it, then flushes what came meanwhile.
 */
export async function flushTokenUsage(db?: Db, now = new Date()): Promise<void> {
  const current = state();
  while (current.flushing) await current.flushing;
  const target = db ?? current.db;
  if (!target || current.pending.size === 0) return;
  const batch = [...current.pending.values()];
  current.pending = new Map();
  current.flushing = (async () => {
    try {
      await writeUsage(target, batch);
      if (now.getTime() - current.lastPrune >= PRUNE_EVERY_MS) {
        current.lastPrune = now.getTime();
        await pruneTokenUsage(target, now);
      }
    } catch (error) {
      // Kept for the next flush: a store that is away for a moment loses no count.
      for (const entry of batch) {
        const key = `${entry.tokenId}\u0000${entry.day}\u0000${entry.operation}\u0000${entry.outcome}`;
        const there = current.pending.get(key);
        if (there) {
          there.count += entry.count;
          there.reports += entry.reports;
          there.items += entry.items;
        } else current.pending.set(key, entry);
      }
      logEvent("error", "token_usage_flush_failed", { rows: batch.length, error: describeError(error) });
    }
  })();
  try {
    await current.flushing;
  } finally {
    current.flushing = null;
  }
}

async function writeUsage(db: Db, batch: Counted[]): Promise<void> {
  await writeTransaction(db, async (trx) => {
    for (let i = 0; i < batch.length; i += ROWS_PER_STATEMENT) {
      await trx
        .insertInto("token_usage_daily")
        .values(
          batch.slice(i, i + ROWS_PER_STATEMENT).map((entry) => ({
            token_id: entry.tokenId,
            day: entry.day,
            operation: entry.operation,
            outcome: entry.outcome,
            count: entry.count,
            reports_calls: entry.reports,
            items_calls: entry.items,
          })),
        )
        .onConflict((conflict) =>
          conflict.columns(["token_id", "day", "operation", "outcome"]).doUpdateSet({
            count: sql<number>`token_usage_daily.count + excluded.count`,
            reports_calls: sql<number>`token_usage_daily.reports_calls + excluded.reports_calls`,
            items_calls: sql<number>`token_usage_daily.items_calls + excluded.items_calls`,
          }),
        )
        .execute();
    }
  });
}

/** Deletes the days older than TOKEN_USAGE_KEEP_DAYS; returns how many rows went. */
export async function pruneTokenUsage(db: Db, now = new Date()): Promise<number> {
  const before = dayOf(new Date(now.getTime() - TOKEN_USAGE_KEEP_DAYS * DAY_MS));
  const result = await db.deleteFrom("token_usage_daily").where("day", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The requests of a month (YYYY-MM) that count against the token's quota, as the store has them: every outcome
 * but those refused before or by the limits. Seeds the quota's counter when it starts afresh (a restart without
 * Redis, or a new month's first request).
 */
export async function monthCounted(db: Db, tokenId: string, month: string): Promise<number> {
  const row = await db
    .selectFrom("token_usage_daily")
    .select((eb) => eb.fn.sum<number | string | null>("count").as("total"))
    .where("token_id", "=", tokenId)
    .where("day", ">=", `${month}-01`)
    .where("day", "<=", `${month}-31`)
    .where("outcome", "not in", ["denied", "limited"])
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export interface UsageRow {
  token_id: string;
  day: string;
  operation: string;
  outcome: string;
  count: number;
  reports_calls: number;
  items_calls: number;
}

/** The last TOKEN_USAGE_DAYS days (today included) of the given tokens' usage, by day, operation and outcome. */
export async function readTokenUsage(db: Db, tokenIds: readonly string[], now = new Date()): Promise<UsageRow[]> {
  if (tokenIds.length === 0) return [];
  const from = dayOf(new Date(now.getTime() - (TOKEN_USAGE_DAYS - 1) * DAY_MS));
  const rows = await db
    .selectFrom("token_usage_daily")
    .selectAll()
    .where("token_id", "in", [...tokenIds])
    .where("day", ">=", from)
    .orderBy("day")
    .orderBy("token_id")
    .orderBy("operation")
    .orderBy("outcome")
    .execute();
  return rows.map((row) => ({
    ...row,
    count: Number(row.count),
    reports_calls: Number(row.reports_calls),
    items_calls: Number(row.items_calls),
  }));
}
