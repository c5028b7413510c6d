// Reports over time; API tokens and webhooks (2026-12-12 and 2026-12-13).
import type { Kysely, Migration } from "kysely";

import type { DialectParts } from ".";

export function reportsIntegrations({ logIdType, logId }: DialectParts): Record<string, Migration> {
  return {
    // Reports over time (issue 22): every result Gatehouse sees, each report's newest one, schedules and their runs,
    // alert rules and alerts, and the page passwords Gatehouse set. The indexes serve the trends (day, result),
    // a project's trend and compare (project, day), a report's timeline (report_id, generated_at: also the key
    // that makes a result recorded once) and the pruning (day). Dated after the 2026-12-10 single sign-on
    // and 2026-12-11 bulk re-check migrations, so that it sorts after every migration a deployed store may have
    // applied (Kysely refuses one that sorts before an applied one).
    "2026-12-12-001-report-history": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("report_results")
          .addColumn("id", logIdType, logId)
          .addColumn("report_id", "integer", (c) => c.notNull())
          .addColumn("url", "text", (c) => c.notNull())
          .addColumn("project", "text")
          .addColumn("result", "text", (c) => c.notNull())
          .addColumn("generated_at", "text", (c) => c.notNull())
          .addColumn("day", "text", (c) => c.notNull())
          .addColumn("seen_at", "text", (c) => c.notNull())
          .addColumn("source", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("report_results_report_generated")
          .on("report_results")
          .columns(["report_id", "generated_at"])
          .unique()
          .execute();
        await db.schema
          .createIndex("report_results_day")
          .on("report_results")
          .columns(["day", "result", "report_id", "generated_at"])
          .execute();
        await db.schema
          .createIndex("report_results_project_day")
          .on("report_results")
          .columns(["project", "day", "result", "report_id", "generated_at"])
          .execute();

        await db.schema
          .createTable("report_latest")
          .addColumn("report_id", "integer", (c) => c.primaryKey())
          .addColumn("url", "text", (c) => c.notNull())
          .addColumn("project", "text")
          .addColumn("result", "text", (c) => c.notNull())
          .addColumn("generated_at", "text", (c) => c.notNull())
          .addColumn("history_id", "integer", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("report_latest_project")
          .on("report_latest")
          .columns(["project", "result"])
          .execute();

        await db.schema
          .createTable("report_schedules")
          .addColumn("project", "text", (c) => c.primaryKey())
          .addColumn("enabled", "integer", (c) => c.notNull())
          .addColumn("frequency", "text", (c) => c.notNull())
          .addColumn("weekday", "integer")
          .addColumn("time", "text", (c) => c.notNull())
          .addColumn("time_zone", "text", (c) => c.notNull())
          .addColumn("next_run_at", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addColumn("updated_by", "text")
          .execute();
        await db.schema
          .createIndex("report_schedules_next")
          .on("report_schedules")
          .columns(["enabled", "next_run_at"])
          .execute();

        await db.schema
          .createTable("report_schedule_runs")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("project", "text", (c) => c.notNull())
          .addColumn("trigger", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("due_at", "text", (c) => c.notNull())
          .addColumn("started_at", "text", (c) => c.notNull())
          .addColumn("finished_at", "text")
          .addColumn("total", "integer")
          .addColumn("done", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("cursor", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("outcome", "text")
          .addColumn("lease_owner", "text")
          .addColumn("lease_until", "text")
          .execute();
        // One run per due time of a project: two instances that find the same schedule due create it once.
        await db.schema
          .createIndex("report_schedule_runs_due")
          .on("report_schedule_runs")
          .columns(["project", "trigger", "due_at"])
          .unique()
          .execute();
        await db.schema
          .createIndex("report_schedule_runs_project")
          .on("report_schedule_runs")
          .columns(["project", "started_at"])
          .execute();
        await db.schema
          .createIndex("report_schedule_runs_status")
          .on("report_schedule_runs")
          .columns(["status", "lease_until"])
          .execute();

        await db.schema
          .createTable("report_alert_rules")
          .addColumn("project", "text", (c) => c.primaryKey())
          .addColumn("rule", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addColumn("updated_by", "text")
          .execute();

        await db.schema
          .createTable("report_alerts")
          .addColumn("id", logIdType, logId)
          .addColumn("history_id", "integer", (c) => c.notNull().unique())
          .addColumn("report_id", "integer", (c) => c.notNull())
          .addColumn("url", "text", (c) => c.notNull())
          .addColumn("project", "text")
          .addColumn("from_result", "text", (c) => c.notNull())
          .addColumn("to_result", "text", (c) => c.notNull())
          .addColumn("generated_at", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("acknowledged_at", "text")
          .addColumn("acknowledged_by", "text")
          .execute();
        await db.schema
          .createIndex("report_alerts_unread")
          .on("report_alerts")
          .columns(["acknowledged_at", "id"])
          .execute();
        await db.schema.createIndex("report_alerts_project").on("report_alerts").columns(["project", "id"]).execute();

        await db.schema
          .createTable("report_share_passwords")
          .addColumn("report_id", "integer", (c) => c.primaryKey())
          .addColumn("sealed", "text", (c) => c.notNull())
          .addColumn("set_at", "text", (c) => c.notNull())
          .addColumn("set_by", "text")
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const table of [
          "report_share_passwords",
          "report_alerts",
          "report_alert_rules",
          "report_schedule_runs",
          "report_schedules",
          "report_latest",
          "report_results",
        ]) {
          await db.schema.dropTable(table).execute();
        }
      },
    },
    // Integration access (issue 19): service accounts, API tokens (kept as a SHA-256 of the secret), and webhook
    // endpoints with their deliveries (one per endpoint and event, held by lease like bulk jobs) and each attempt.
    // Named to sort after issue 21's single sign-on (2026-12-10), which stores on main may have applied already.
    "2026-12-13-001-tokens-webhooks": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable("users")
          .addColumn("service", "integer", (c) => c.notNull().defaultTo(0))
          .execute();

        await db.schema
          .createTable("api_tokens")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("user_id", "text", (c) => c.notNull())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("token_hash", "text", (c) => c.notNull().unique())
          .addColumn("scopes", "text", (c) => c.notNull())
          .addColumn("allowed_ips", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("created_by", "text")
          .addColumn("expires_at", "text")
          .addColumn("last_used_at", "text")
          .addColumn("last_used_ip", "text")
          .addColumn("seen_addresses", "text")
          .addColumn("revoked_at", "text")
          .addColumn("revoked_by", "text")
          .execute();
        await db.schema.createIndex("api_tokens_user").on("api_tokens").columns(["user_id", "created_at"]).execute();

        await db.schema
          .createTable("webhook_endpoints")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("url", "text", (c) => c.notNull())
          .addColumn("description", "text")
          .addColumn("events", "text", (c) => c.notNull())
          .addColumn("secret_sealed", "text", (c) => c.notNull())
          .addColumn("previous_secret_sealed", "text")
          .addColumn("previous_secret_until", "text")
          .addColumn("disabled", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("disabled_reason", "text")
          .addColumn("disabled_at", "text")
          .addColumn("failing_since", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addColumn("created_by", "text")
          .execute();

        await db.schema
          .createTable("webhook_deliveries")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("endpoint_id", "text", (c) => c.notNull())
          .addColumn("event_type", "text", (c) => c.notNull())
          .addColumn("payload", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("next_attempt_at", "text")
          .addColumn("last_attempt_at", "text")
          .addColumn("last_status", "integer")
          .addColumn("lease_owner", "text")
          .addColumn("lease_until", "text")
          .execute();
        await db.schema
          .createIndex("webhook_deliveries_due")
          .on("webhook_deliveries")
          .columns(["status", "next_attempt_at"])
          .execute();
        await db.schema
          .createIndex("webhook_deliveries_endpoint")
          .on("webhook_deliveries")
          .columns(["endpoint_id", "created_at"])
          .execute();

        await db.schema
          .createTable("webhook_attempts")
          .addColumn("id", logIdType, logId)
          .addColumn("delivery_id", "text", (c) => c.notNull())
          .addColumn("endpoint_id", "text", (c) => c.notNull())
          .addColumn("at", "text", (c) => c.notNull())
          .addColumn("ok", "integer", (c) => c.notNull())
          .addColumn("status_code", "integer")
          .addColumn("duration_ms", "integer", (c) => c.notNull())
          .addColumn("error", "text")
          .addColumn("response_excerpt", "text")
          .execute();
        await db.schema
          .createIndex("webhook_attempts_delivery")
          .on("webhook_attempts")
          .columns(["delivery_id", "at"])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("webhook_attempts").execute();
        await db.schema.dropTable("webhook_deliveries").execute();
        await db.schema.dropTable("webhook_endpoints").execute();
        await db.schema.dropTable("api_tokens").execute();
        await db.schema.alterTable("users").dropColumn("service").execute();
      },
    },
  };
}
