// Audit streaming (issue 37, from 2027-01-07): each destination's cursor and the streams' delivery log. A file of its
// own after 06-notification-digests.ts: its names sort after every migration a store may have run.
import type { Kysely, Migration } from "kysely";

import type { DialectParts } from "./index";

export function auditStreams({ logIdType, logId }: DialectParts): Record<string, Migration> {
  return {
    // audit_stream_cursors: per destination, the last audit row it accepted, its backoff and the lease of the
    // instance sending to it (lib/audit-streams/cursor.ts).
    "2027-01-07-001-audit-stream-cursors": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("audit_stream_cursors")
          .addColumn("destination", "text", (c) => c.primaryKey())
          .addColumn("last_id", "bigint", (c) => c.notNull().defaultTo(0))
          .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("next_attempt_at", "text")
          .addColumn("lease_owner", "text")
          .addColumn("lease_until", "text")
          .addColumn("last_success_at", "text")
          .addColumn("last_error", "text")
          .addColumn("last_error_at", "text")
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("audit_stream_cursors").execute();
      },
    },
    // audit_stream_deliveries: one row per batch sent or tried, pruned after AUDIT_STREAM_LOG_RETENTION_DAYS.
    "2027-01-07-002-audit-stream-deliveries": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("audit_stream_deliveries")
          .addColumn("id", logIdType, logId)
          .addColumn("destination", "text", (c) => c.notNull())
          .addColumn("first_id", "bigint", (c) => c.notNull())
          .addColumn("last_id", "bigint", (c) => c.notNull())
          .addColumn("count", "integer", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("error", "text")
          .addColumn("attempted_at", "text", (c) => c.notNull())
          .addColumn("duration_ms", "integer", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("audit_stream_deliveries_destination_id")
          .on("audit_stream_deliveries")
          .columns(["destination", "id"])
          .execute();
        await db.schema
          .createIndex("audit_stream_deliveries_attempted_at")
          .on("audit_stream_deliveries")
          .column("attempted_at")
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("audit_stream_deliveries").execute();
      },
    },
  };
}
