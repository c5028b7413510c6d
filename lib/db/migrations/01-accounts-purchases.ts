// Accounts, audit and sign-in throttling; purchase checks and bulk jobs; password screening; the audit ledger;
// single sign-on; bulk re-checks (2025-01 to 2026-12-11).
import type { Kysely, Migration } from "kysely";

import type { DialectParts } from ".";

export function accountsPurchases({ logIdType, logId }: DialectParts): Record<string, Migration> {
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
  };
}
