// Schema changes, in code so Next's bundler ships them (no migration folder read at run time). Append new
// migrations with a name that sorts after the last one; never edit one that has shipped.
import type { ColumnDefinitionBuilder, Kysely, Migration } from "kysely";

export type Dialect = "sqlite" | "postgres";

export function migrations(dialect: Dialect): Record<string, Migration> {
  // The only dialect-specific piece: an auto-increment primary key for the append-only logs.
  const logIdType = dialect === "postgres" ? "serial" : "integer";
  const logId = (c: ColumnDefinitionBuilder) =>
    dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement();

  return {
    "2025-01-01-001-users-audit-throttle": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("users")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("email", "text", (c) => c.notNull().unique())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("role", "text", (c) => c.notNull())
          .addColumn("password_hash", "text", (c) => c.notNull())
          .addColumn("disabled", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("session_version", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();

        await db.schema
          .createTable("audit_log")
          .addColumn("id", logIdType, logId)
          .addColumn("at", "text", (c) => c.notNull())
          .addColumn("user_id", "text")
          .addColumn("user_email", "text")
          .addColumn("action", "text", (c) => c.notNull())
          .addColumn("target_type", "text")
          .addColumn("target_id", "text")
          .addColumn("outcome", "text", (c) => c.notNull())
          .addColumn("request_id", "text")
          .addColumn("detail", "text")
          .execute();
        await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at", "id"]).execute();
        await db.schema.createIndex("audit_log_user_id_at").on("audit_log").columns(["user_id", "at"]).execute();
        await db.schema.createIndex("audit_log_user_email_at").on("audit_log").columns(["user_email", "at"]).execute();
        await db.schema.createIndex("audit_log_action_at").on("audit_log").columns(["action", "at"]).execute();

        await db.schema
          .createTable("login_failures")
          .addColumn("id", logIdType, logId)
          .addColumn("email", "text", (c) => c.notNull())
          .addColumn("ip", "text")
          .addColumn("at", "text", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("login_failures_email_at").on("login_failures").columns(["email", "at"]).execute();
        await db.schema.createIndex("login_failures_ip_at").on("login_failures").columns(["ip", "at"]).execute();
        await db.schema.createIndex("login_failures_at").on("login_failures").column("at").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("login_failures").execute();
        await db.schema.dropTable("audit_log").execute();
        await db.schema.dropTable("users").execute();
      },
    },
    // The purchase checker (issue 7): every check, and bulk jobs with one row per distinct code.
    "2026-11-21-001-purchase-checks-bulk-jobs": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("purchase_checks")
          .addColumn("id", logIdType, logId)
          .addColumn("checked_at", "text", (c) => c.notNull())
          .addColumn("user_id", "text")
          .addColumn("user_email", "text")
          .addColumn("code_hash", "text", (c) => c.notNull())
          .addColumn("code_last4", "text", (c) => c.notNull())
          .addColumn("outcome", "text", (c) => c.notNull())
          .addColumn("reason", "text")
          .addColumn("item_id", "integer")
          .addColumn("item_name", "text")
          .addColumn("license_type", "text")
          .addColumn("supported_until", "text")
          .addColumn("source", "text", (c) => c.notNull())
          .addColumn("bulk_job_id", "text")
          .addColumn("request_id", "text")
          .execute();
        await db.schema.createIndex("purchase_checks_at").on("purchase_checks").columns(["checked_at", "id"]).execute();
        await db.schema
          .createIndex("purchase_checks_hash_at")
          .on("purchase_checks")
          .columns(["code_hash", "checked_at"])
          .execute();
        await db.schema
          .createIndex("purchase_checks_user_id_at")
          .on("purchase_checks")
          .columns(["user_id", "checked_at"])
          .execute();
        await db.schema
          .createIndex("purchase_checks_user_email_at")
          .on("purchase_checks")
          .columns(["user_email", "checked_at"])
          .execute();
        await db.schema
          .createIndex("purchase_checks_item_at")
          .on("purchase_checks")
          .columns(["item_id", "checked_at"])
          .execute();
        await db.schema
          .createIndex("purchase_checks_outcome_at")
          .on("purchase_checks")
          .columns(["outcome", "checked_at"])
          .execute();

        await db.schema
          .createTable("bulk_jobs")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("user_id", "text", (c) => c.notNull())
          .addColumn("user_email", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("total", "integer", (c) => c.notNull())
          .addColumn("duplicates", "integer", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("started_at", "text")
          .addColumn("finished_at", "text")
          .addColumn("expires_at", "text", (c) => c.notNull())
          .addColumn("waiting_until", "text")
          .addColumn("lease_owner", "text")
          .addColumn("lease_until", "text")
          .execute();
        await db.schema
          .createIndex("bulk_jobs_user_created")
          .on("bulk_jobs")
          .columns(["user_id", "created_at"])
          .execute();
        await db.schema.createIndex("bulk_jobs_status").on("bulk_jobs").columns(["status", "created_at"]).execute();
        await db.schema.createIndex("bulk_jobs_expires").on("bulk_jobs").column("expires_at").execute();

        await db.schema
          .createTable("bulk_job_codes")
          .addColumn("job_id", "text", (c) => c.notNull())
          .addColumn("idx", "integer", (c) => c.notNull())
          .addColumn("code_sealed", "text", (c) => c.notNull())
          .addColumn("code_hash", "text", (c) => c.notNull())
          .addColumn("code_last4", "text", (c) => c.notNull())
          .addColumn("occurrences", "integer", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("refused", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("reason", "text")
          .addColumn("notes", "text")
          .addColumn("item_id", "integer")
          .addColumn("item_name", "text")
          .addColumn("license_type", "text")
          .addColumn("supported_until", "text")
          .addColumn("checked_at", "text")
          .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint("bulk_job_codes_pk", ["job_id", "idx"])
          .execute();
        await db.schema
          .createIndex("bulk_job_codes_status")
          .on("bulk_job_codes")
          .columns(["job_id", "status"])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("bulk_job_codes").execute();
        await db.schema.dropTable("bulk_jobs").execute();
        await db.schema.dropTable("purchase_checks").execute();
      },
    },
    // A configured start refuses a store where an account signs in with the demo password; checking a hash costs
    // a password's hashing time, so each hash is checked once and remembered here.
    "2026-12-01-001-password-screening": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("password_screening")
          .addColumn("user_id", "text", (c) => c.primaryKey())
          .addColumn("password_hash", "text", (c) => c.notNull())
          .addColumn("screened_at", "text", (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("password_screening").execute();
      },
    },
    // The audit log as a ledger (issue 15): repeated denials collapse into one row with a count, and a row keeps
    // the name its target had (a report's URL, a user's email) so that it reads the same after the target goes.
    "2026-12-02-001-audit-ledger": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable("audit_log")
          .addColumn("repeat_count", "integer", (c) => c.notNull().defaultTo(1))
          .execute();
        await db.schema.alterTable("audit_log").addColumn("last_at", "text").execute();
        await db.schema.alterTable("audit_log").addColumn("target_label", "text").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable("audit_log").dropColumn("target_label").execute();
        await db.schema.alterTable("audit_log").dropColumn("last_at").execute();
        await db.schema.alterTable("audit_log").dropColumn("repeat_count").execute();
      },
    },
    // Single sign-on (issue 21): users created at their first OpenID Connect sign-in are matched by the provider's
    // (issuer, sub), never by email; a role an admin pinned is not recomputed from the provider's groups. Each SSO
    // session keeps its refresh token and ID token server-side, sealed, for the re-check and the provider's logout.
    "2026-12-10-001-single-sign-on": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("users").addColumn("oidc_issuer", "text").execute();
        await db.schema.alterTable("users").addColumn("oidc_subject", "text").execute();
        await db.schema
          .alterTable("users")
          .addColumn("role_pinned", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable("users").addColumn("last_sign_in_at", "text").execute();
        // NULLs are distinct in a unique index (both databases): password users have no identity.
        await db.schema
          .createIndex("users_oidc_identity")
          .on("users")
          .columns(["oidc_issuer", "oidc_subject"])
          .unique()
          .execute();

        await db.schema
          .createTable("sso_sessions")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("user_id", "text", (c) => c.notNull())
          .addColumn("issuer", "text", (c) => c.notNull())
          .addColumn("subject", "text", (c) => c.notNull())
          .addColumn("refresh_token_sealed", "text")
          .addColumn("id_token_sealed", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("checked_at", "text", (c) => c.notNull())
          .addColumn("check_lease_until", "text")
          .addColumn("expires_at", "text", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("sso_sessions_user").on("sso_sessions").column("user_id").execute();
        await db.schema.createIndex("sso_sessions_expires").on("sso_sessions").column("expires_at").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("sso_sessions").execute();
        await db.schema.dropIndex("users_oidc_identity").execute();
        await db.schema.alterTable("users").dropColumn("last_sign_in_at").execute();
        await db.schema.alterTable("users").dropColumn("role_pinned").execute();
        await db.schema.alterTable("users").dropColumn("oidc_subject").execute();
        await db.schema.alterTable("users").dropColumn("oidc_issuer").execute();
      },
    },
    // Re-checking a bulk job's failed rows (issue 17): which failures may pass on a retry (network, timeout, 429,
    // 5xx — not a refused key), and each re-check's codes, charged against the hourly allowance like a new batch.
    // Failed rows of jobs made before this migration say 0: they are not offered for a re-check. Dated after main's
    // 2026-12-10 single-sign-on migration, so a store that applied that one accepts this one.
    "2026-12-11-001-bulk-recheck": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable("bulk_job_codes")
          .addColumn("retryable", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createTable("bulk_rechecks")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("job_id", "text", (c) => c.notNull())
          .addColumn("user_id", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("codes", "integer", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("bulk_rechecks_user_created")
          .on("bulk_rechecks")
          .columns(["user_id", "created_at"])
          .execute();
        // The per-item view of /purchases (last 30 days): every column it reads, so the range is read from the index alone.
        await db.schema
          .createIndex("purchase_checks_at_item")
          .on("purchase_checks")
          .columns(["checked_at", "item_id", "outcome", "supported_until", "code_hash"])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex("purchase_checks_at_item").execute();
        await db.schema.dropTable("bulk_rechecks").execute();
        await db.schema.alterTable("bulk_job_codes").dropColumn("retryable").execute();
      },
    },
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
    // Upstream keys kept in the portal (issue 20): each sealed under GATEHOUSE_KEK with its area bound in, shown
    // only by fingerprint and last 4 characters. One active key per area at most; the ones it replaced stay,
    // disabled, so that a rotation can be undone. `upstream_key_state` is what every instance polls: one tiny row
    // per area whose version changes with the active key, and the last rejection of that key by the upstream.
    "2026-12-20-001-upstream-keys": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("upstream_keys")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("area", "text", (c) => c.notNull())
          .addColumn("sealed", "text", (c) => c.notNull())
          .addColumn("fingerprint", "text", (c) => c.notNull())
          .addColumn("last4", "text", (c) => c.notNull())
          .addColumn("active", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("created_by", "text")
          .addColumn("activated_at", "text")
          .addColumn("activated_by", "text")
          .execute();
        await db.schema.createIndex("upstream_keys_area").on("upstream_keys").columns(["area", "active"]).execute();
        await db.schema
          .createTable("upstream_key_state")
          .addColumn("area", "text", (c) => c.primaryKey())
          .addColumn("version", "integer", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addColumn("rejected_at", "text")
          .addColumn("rejected_fingerprint", "text")
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("upstream_key_state").execute();
        await db.schema.dropTable("upstream_keys").execute();
      },
    },
    // A bulk code whose check is under way: a cancel lets that check write its result instead of marking the code
    // cancelled under it, so the job's counts settle once and never change behind a page that stopped asking.
    "2026-12-21-001-bulk-checks-under-way": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("bulk_job_codes").addColumn("check_started_at", "text").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable("bulk_job_codes").dropColumn("check_started_at").execute();
      },
    },
    // The trend's indexes narrowed to what it reads (issue 28): (day, result) and (project, day, result), small
    // with PostgreSQL's B-tree deduplication (~90 pages against ~1,100 for the wide ones at 100,000 rows), so
    // PostgreSQL reads a 365-day count from the index alone instead of a parallel scan of the table. The wide
    // indexes they replace carried report_id and generated_at, which no query reads through them.
    "2026-12-22-003-trend-indexes": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createIndex("report_results_day_result")
          .on("report_results")
          .columns(["day", "result"])
          .execute();
        await db.schema
          .createIndex("report_results_project_day_result")
          .on("report_results")
          .columns(["project", "day", "result"])
          .execute();
        await db.schema.dropIndex("report_results_day").execute();
        await db.schema.dropIndex("report_results_project_day").execute();
      },
      async down(db: Kysely<unknown>) {
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
        await db.schema.dropIndex("report_results_day_result").execute();
        await db.schema.dropIndex("report_results_project_day_result").execute();
      },
    },
    // A single sign-on session the provider's groups ended keeps why (the claim and the values read) until its
    // absolute end, so that each of the user's other sessions says why too at its next request.
    "2026-12-22-006-sso-session-end-reason": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("sso_sessions").addColumn("ended_no_role", "text").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable("sso_sessions").dropColumn("ended_no_role").execute();
      },
    },
    // The jobs of the store's provider (lib/jobs/store.ts), used when REDIS_URL is not set: one row per job
    // waiting or running (its lease), deleted when it is done; and each kind's pause (a 429 holds every process).
    "2026-12-23-001-jobs": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("jobs")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("payload", "text", (c) => c.notNull())
          .addColumn("run_at", "text", (c) => c.notNull())
          .addColumn("retries", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("lease_owner", "text")
          .addColumn("lease_until", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("jobs_kind_run_at").on("jobs").columns(["kind", "run_at"]).execute();
        await db.schema
          .createTable("job_pauses")
          .addColumn("kind", "text", (c) => c.primaryKey())
          .addColumn("paused_until", "text", (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("job_pauses").execute();
        await db.schema.dropTable("jobs").execute();
      },
    },
    // Bulk jobs on the job system (issue 30): a job is checked a batch at a time by whichever process or instance
    // runs it next, so a code that failed for a reason a later try may pass waits in the store until not_before,
    // its transient failures counted; the job's lease is the job system's (`jobs`), no longer the bulk job's own.
    "2026-12-23-002-bulk-jobs-on-the-job-system": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("bulk_job_codes").addColumn("not_before", "text").execute();
        await db.schema
          .alterTable("bulk_job_codes")
          .addColumn("transient_failures", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable("bulk_jobs").dropColumn("lease_until").execute();
        await db.schema.alterTable("bulk_jobs").dropColumn("lease_owner").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable("bulk_jobs").addColumn("lease_owner", "text").execute();
        await db.schema.alterTable("bulk_jobs").addColumn("lease_until", "text").execute();
        await db.schema.alterTable("bulk_job_codes").dropColumn("transient_failures").execute();
        await db.schema.alterTable("bulk_job_codes").dropColumn("not_before").execute();
      },
    },
    // Webhook deliveries run on the job system (issue 30), whose `jobs` row holds the lease: the delivery's own
    // lease columns are no longer written or read.
    "2026-12-23-003-webhook-deliveries-lease-on-the-job-system": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("webhook_deliveries").dropColumn("lease_until").execute();
        await db.schema.alterTable("webhook_deliveries").dropColumn("lease_owner").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable("webhook_deliveries").addColumn("lease_owner", "text").execute();
        await db.schema.alterTable("webhook_deliveries").addColumn("lease_until", "text").execute();
      },
    },
    // Scheduled report runs are jobs (issue 30): the provider holds their lease, so the run's own lease columns go,
    // and the status index that held one of them keeps the status alone (runs under way are found by it).
    "2026-12-23-004-report-runs-lease-on-the-job-system": {
      async up(db: Kysely<unknown>) {
        await db.schema.dropIndex("report_schedule_runs_status").execute();
        await db.schema.alterTable("report_schedule_runs").dropColumn("lease_until").execute();
        await db.schema.alterTable("report_schedule_runs").dropColumn("lease_owner").execute();
        await db.schema
          .createIndex("report_schedule_runs_status")
          .on("report_schedule_runs")
          .column("status")
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex("report_schedule_runs_status").execute();
        await db.schema.alterTable("report_schedule_runs").addColumn("lease_owner", "text").execute();
        await db.schema.alterTable("report_schedule_runs").addColumn("lease_until", "text").execute();
        await db.schema
          .createIndex("report_schedule_runs_status")
          .on("report_schedule_runs")
          .columns(["status", "lease_until"])
          .execute();
      },
    },
  };
}
