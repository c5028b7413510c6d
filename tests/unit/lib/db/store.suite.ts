// What every backend's store must provide after openDb: the schema, applied once.
import { describe, expect, it } from "vitest";

import { migrate } from "@/lib/db";
import { migrations } from "@/lib/db/migrations";

import { useStore, type Backend } from "@/tests/support/store-backends";

export function storeSuite(backend: Backend) {
  describe(`store (${backend.name})`, () => {
    const store = useStore(backend);

    it("opens with every migration applied, and applying again changes nothing", async () => {
      const { db, dialect } = store();
      const tables = await db.introspection.getTables();
      const columns = Object.fromEntries(tables.map((t) => [t.name, t.columns.map((c) => c.name).sort()]));
      expect(columns.users).toEqual(
        [
          "created_at",
          "disabled",
          "email",
          "id",
          "last_sign_in_at",
          "name",
          "oidc_issuer",
          "oidc_subject",
          "password_hash",
          "role",
          "role_pinned",
          "service",
          "session_version",
          "time_zone",
          "updated_at",
        ].sort(),
      );
      expect(columns.audit_log).toEqual(
        [
          "action",
          "at",
          "detail",
          "id",
          "last_at",
          "outcome",
          "repeat_count",
          "request_id",
          "target_id",
          "target_label",
          "target_type",
          "user_email",
          "user_id",
        ].sort(),
      );
      expect(columns.login_failures).toEqual(["at", "email", "id", "ip"]);
      expect(columns.purchase_checks).toEqual(
        [
          "bulk_job_id",
          "checked_at",
          "code_hash",
          "code_last4",
          "id",
          "item_id",
          "item_name",
          "license_type",
          "outcome",
          "reason",
          "request_id",
          "source",
          "supported_until",
          "ticket_id",
          "ticket_system",
          "ticket_url",
          "token_id",
          "client_hash",
          "shared_suspected",
          "user_email",
          "user_id",
        ].sort(),
      );
      // A purchase over its life (issue 33): never a code in the clear, only sealed while the sweep covers it.
      expect(columns.known_purchases).toEqual(
        [
          "code_hash",
          "code_last4",
          "code_sealed",
          "first_valid_at",
          "item_id",
          "item_name",
          "last_valid_at",
          "license_type",
          "revoked_at",
          "shared_flagged_at",
          "sold_at",
          "status",
          "support_notice_for",
          "supported_until",
          "verified_at",
        ].sort(),
      );
      expect(columns.purchase_rechecks).toEqual(["asked_at", "code_hash", "code_sealed"]);
      expect(columns.bulk_jobs).toEqual(
        [
          "created_at",
          "duplicates",
          "expires_at",
          "finished_at",
          "id",
          "started_at",
          "status",
          "total",
          "user_email",
          "user_id",
          "waiting_until",
        ].sort(),
      );
      expect(columns.bulk_job_codes).toEqual(
        [
          "attempts",
          "check_started_at",
          "checked_at",
          "code_hash",
          "code_last4",
          "code_sealed",
          "idx",
          "item_id",
          "item_name",
          "job_id",
          "last_verdict",
          "license_type",
          "not_before",
          "notes",
          "occurrences",
          "previously_valid",
          "reason",
          "refused",
          "retryable",
          "status",
          "supported_until",
          "transient_failures",
        ].sort(),
      );
      expect(columns.bulk_rechecks).toEqual(["codes", "created_at", "id", "job_id", "user_id"]);
      expect(columns.password_screening).toEqual(["password_hash", "screened_at", "user_id"]);
      expect(columns.sso_sessions).toEqual(
        [
          "check_lease_until",
          "checked_at",
          "created_at",
          "ended_no_role",
          "expires_at",
          "id",
          "id_token_sealed",
          "issuer",
          "refresh_token_sealed",
          "subject",
          "user_id",
        ].sort(),
      );
      // Reports over time (lib/reports).
      expect(columns.report_results).toEqual([
        "day",
        "generated_at",
        "id",
        "project",
        "report_id",
        "result",
        "seen_at",
        "source",
        "url",
      ]);
      expect(columns.report_latest).toEqual(["generated_at", "history_id", "project", "report_id", "result", "url"]);
      expect(columns.report_schedules).toEqual(
        [
          "created_at",
          "enabled",
          "frequency",
          "next_run_at",
          "project",
          "time",
          "time_zone",
          "updated_at",
          "updated_by",
          "weekday",
        ].sort(),
      );
      expect(columns.report_schedule_runs).toEqual(
        [
          "cursor",
          "done",
          "due_at",
          "failed",
          "finished_at",
          "id",
          "outcome",
          "project",
          "started_at",
          "status",
          "total",
          "trigger",
        ].sort(),
      );
      expect(columns.report_alert_rules).toEqual(["project", "rule", "updated_at", "updated_by"]);
      expect(columns.report_alerts).toEqual(
        [
          "acknowledged_at",
          "acknowledged_by",
          "created_at",
          "from_result",
          "generated_at",
          "history_id",
          "id",
          "project",
          "report_id",
          "to_result",
          "url",
        ].sort(),
      );
      expect(columns.report_share_passwords).toEqual(["report_id", "sealed", "set_at", "set_by"]);
      expect(columns.api_tokens).toEqual(
        [
          "allowed_ips",
          "created_at",
          "created_by",
          "expires_at",
          "id",
          "last_used_at",
          "last_used_ip",
          "monthly_quota",
          "name",
          "rate_limit_per_minute",
          "revoked_at",
          "revoked_by",
          "scopes",
          "seen_addresses",
          "token_hash",
          "user_id",
        ].sort(),
      );
      expect(columns.token_usage_daily).toEqual(
        ["count", "day", "items_calls", "operation", "outcome", "reports_calls", "token_id"].sort(),
      );
      expect(columns.token_quota_reached).toEqual(["month", "reached_at", "token_id"]);
      expect(columns.webhook_endpoints).toEqual(
        [
          "created_at",
          "created_by",
          "description",
          "disabled",
          "disabled_at",
          "disabled_reason",
          "events",
          "failing_since",
          "id",
          "previous_secret_sealed",
          "previous_secret_until",
          "secret_sealed",
          "updated_at",
          "url",
        ].sort(),
      );
      expect(columns.webhook_deliveries).toEqual(
        [
          "attempts",
          "created_at",
          "endpoint_id",
          "event_type",
          "id",
          "last_attempt_at",
          "last_status",
          "next_attempt_at",
          "payload",
          "status",
        ].sort(),
      );
      expect(columns.webhook_attempts).toEqual(
        [
          "at",
          "delivery_id",
          "duration_ms",
          "endpoint_id",
          "error",
          "id",
          "ok",
          "response_excerpt",
          "status_code",
        ].sort(),
      );
      expect(columns.helpdesk_settings).toEqual(["secret_sealed", "set_at", "set_by", "system"]);
      expect(await migrate({ db, dialect })).toEqual([]);
      // Migrations run in the order of their names: each new one's name sorts after the last.
      expect(Object.keys(migrations(dialect))).toEqual(Object.keys(migrations(dialect)).sort());
    });

    it("numbers log rows in insertion order", async () => {
      const { db } = store();
      const at = new Date().toISOString();
      for (const email of ["a", "b", "c"])
        await db.insertInto("login_failures").values({ email, ip: null, at }).execute();
      const rows = await db.selectFrom("login_failures").select(["id", "email"]).orderBy("id").execute();
      expect(rows.map((r) => r.email)).toEqual(["a", "b", "c"]);
      expect(rows.map((r) => typeof r.id)).toEqual(["number", "number", "number"]);
    });
  });
}
