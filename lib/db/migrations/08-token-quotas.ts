// Per-token quotas and usage (issue 37, from 2027-01-08): each API token's own per-minute limit and monthly
// quota, its requests counted per day (by operation and outcome, with the upstream calls made for it), and the
// months in which it reached its quota (so that the event is sent once). A file of its own: its names sort after
// every migration before it; 07 is left to the audit streaming written beside it.
import { type Kysely, type Migration } from "kysely";

export function tokenQuotas(): Record<string, Migration> {
  return {
    // api_tokens.rate_limit_per_minute / monthly_quota: null means none of its own (the owner's limit still holds).
    "2027-01-08-001-token-limits": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("api_tokens").addColumn("rate_limit_per_minute", "integer").execute();
        await db.schema.alterTable("api_tokens").addColumn("monthly_quota", "integer").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable("api_tokens").dropColumn("monthly_quota").execute();
        await db.schema.alterTable("api_tokens").dropColumn("rate_limit_per_minute").execute();
      },
    },
    // token_usage_daily: requests per token, UTC day, operation and outcome, added to by every instance's flush
    // (lib/tokens/usage.ts); kept about 35 days.
    "2027-01-08-002-token-usage-daily": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("token_usage_daily")
          .addColumn("token_id", "text", (c) => c.notNull())
          .addColumn("day", "text", (c) => c.notNull())
          .addColumn("operation", "text", (c) => c.notNull())
          .addColumn("outcome", "text", (c) => c.notNull())
          .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("reports_calls", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("items_calls", "integer", (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint("token_usage_daily_pk", ["token_id", "day", "operation", "outcome"])
          .execute();
        await db.schema.createIndex("token_usage_daily_day").on("token_usage_daily").column("day").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("token_usage_daily").execute();
      },
    },
    // token_quota_reached: the months in which a token reached its quota; the first instance to write the row
    // sends token.quota_reached, every other finds it there.
    "2027-01-08-003-token-quota-reached": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("token_quota_reached")
          .addColumn("token_id", "text", (c) => c.notNull())
          .addColumn("month", "text", (c) => c.notNull())
          .addColumn("reached_at", "text", (c) => c.notNull())
          .addPrimaryKeyConstraint("token_quota_reached_pk", ["token_id", "month"])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("token_quota_reached").execute();
      },
    },
  };
}
