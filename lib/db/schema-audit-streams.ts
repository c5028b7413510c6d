// Audit streaming's tables (lib/audit-streams; migration lib/db/migrations/07-audit-streams.ts), as Kysely sees them:
// portable as the rest of ./schema.ts, which names them in its Database.
import type { ColumnType } from "kysely";

/**
 * One destination's durable cursor ("syslog", "http"): the audit rows up to `last_id` were accepted by it. Held by
 * one instance at a time (a lease), so two instances never send the same rows at once.
 */
export interface AuditStreamCursorsTable {
  destination: string;
  /** The last audit row the destination accepted (0: none yet). */
  last_id: number;
  /** Failed batches in a row since the last success: the next attempt waits retryBackoffMs(failures). */
  failures: ColumnType<number, number | undefined, number>;
  /** Not before this time (ISO): the backoff after a failure. */
  next_attempt_at: ColumnType<string | null, string | null | undefined, string | null>;
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>;
  lease_until: ColumnType<string | null, string | null | undefined, string | null>;
  last_success_at: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  last_error_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One batch sent (or tried) to a destination: the delivery log the audit page shows. */
export interface AuditStreamDeliveriesTable {
  id: ColumnType<number, never, never>;
  destination: string;
  first_id: number;
  last_id: number;
  count: number;
  /** "delivered" | "failed" */
  status: string;
  /** A sentence, for a failure (never the collector's token). */
  error: string | null;
  attempted_at: string;
  duration_ms: number;
}
