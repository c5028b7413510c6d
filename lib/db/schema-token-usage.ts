// Per-token usage and quotas (issue 37; migration lib/db/migrations/08-token-quotas.ts), as Kysely sees them:
// portable as the rest of ./schema.ts, which names them in its Database.
import type { ColumnType } from "kysely";

/** Requests with one token on one UTC day, for one operation and outcome; every instance's flush adds to it. */
export interface TokenUsageDailyTable {
  token_id: string;
  day: string; // YYYY-MM-DD (UTC)
  operation: string; // the operation's id (listReports)
  outcome: string; // TOKEN_USAGE_OUTCOMES
  count: number;
  /** Calls to each upstream made while answering them (area A, area B). */
  reports_calls: ColumnType<number, number | undefined, number>;
  items_calls: ColumnType<number, number | undefined, number>;
}

/** A month in which a token reached its monthly quota: token.quota_reached is sent once for it. */
export interface TokenQuotaReachedTable {
  token_id: string;
  month: string; // YYYY-MM (UTC)
  reached_at: string;
}
