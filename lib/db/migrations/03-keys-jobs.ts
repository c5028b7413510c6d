// Upstream keys kept in the portal, and what came after: the job system and its moves (from 2026-12-20).
import { sql, type Kysely, type Migration } from "kysely";

export function keysJobs(): Record<string, Migration> {
  return {
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
    // Each person's time zone (issue 31): the IANA name he picked on the account page, or null for his browser's.
    "2026-12-24-001-user-time-zone": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("users").addColumn("time_zone", "text").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable("users").dropColumn("time_zone").execute();
      },
    },
    // The ticket a helpdesk check was made for (issue 32): its helpdesk, its id there and its address, so that
    // the history reads by ticket and a helpdesk's card shows what was checked for it before.
    "2026-12-25-001-purchase-check-tickets": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("purchase_checks").addColumn("ticket_system", "text").execute();
        await db.schema.alterTable("purchase_checks").addColumn("ticket_id", "text").execute();
        await db.schema.alterTable("purchase_checks").addColumn("ticket_url", "text").execute();
        await db.schema
          .createIndex("purchase_checks_ticket")
          .on("purchase_checks")
          .columns(["ticket_system", "ticket_id", "checked_at"])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex("purchase_checks_ticket").execute();
        await db.schema.alterTable("purchase_checks").dropColumn("ticket_url").execute();
        await db.schema.alterTable("purchase_checks").dropColumn("ticket_id").execute();
        await db.schema.alterTable("purchase_checks").dropColumn("ticket_system").execute();
      },
    },
    // Help Scout's signing secret (issue 32): made by an admin on Admin → Helpdesk, kept sealed, one row per helpdesk.
    "2026-12-25-002-helpdesk-settings": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("helpdesk_settings")
          .addColumn("system", "text", (c) => c.primaryKey())
          .addColumn("secret_sealed", "text", (c) => c.notNull())
          .addColumn("set_at", "text", (c) => c.notNull())
          .addColumn("set_by", "text")
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("helpdesk_settings").execute();
      },
    },
    // A purchase over its life (issue 33): each code seen valid is known (its item, licence and support end, whether
    // the item service refuses it now), sealed only while the re-verification sweep covers it; a code answered
    // from its last verdict during an outage waits, sealed, for its re-check; each check keeps which token and
    // which address (a keyed hash, never the address) asked, for the "possibly shared" flag; the lifecycle's
    // settings and each item's renewal link. Codes seen valid before are known from the history.
    "2026-12-26-001-purchase-lifecycle": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("known_purchases")
          .addColumn("code_hash", "text", (c) => c.primaryKey())
          .addColumn("code_last4", "text", (c) => c.notNull())
          .addColumn("item_id", "integer", (c) => c.notNull())
          .addColumn("item_name", "text", (c) => c.notNull())
          .addColumn("license_type", "text", (c) => c.notNull())
          .addColumn("supported_until", "text")
          .addColumn("sold_at", "text")
          .addColumn("first_valid_at", "text", (c) => c.notNull())
          .addColumn("last_valid_at", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("verified_at", "text", (c) => c.notNull())
          .addColumn("revoked_at", "text")
          .addColumn("code_sealed", "text")
          .addColumn("support_notice_for", "text")
          .addColumn("shared_flagged_at", "text")
          .execute();
        await db.schema
          .createIndex("known_purchases_support")
          .on("known_purchases")
          .columns(["supported_until"])
          .execute();
        await db.schema
          .createIndex("known_purchases_verified")
          .on("known_purchases")
          .columns(["status", "verified_at"])
          .execute();
        await sql`INSERT INTO known_purchases (code_hash, code_last4, item_id, item_name, license_type, supported_until,
            first_valid_at, last_valid_at, status, verified_at)
          SELECT code_hash, max(code_last4), max(item_id), max(item_name), max(license_type), max(supported_until),
            min(checked_at), max(checked_at), 'valid', max(checked_at)
          FROM purchase_checks WHERE outcome = 'valid' AND item_id IS NOT NULL GROUP BY code_hash`.execute(db);
        await db.schema
          .createTable("purchase_rechecks")
          .addColumn("code_hash", "text", (c) => c.primaryKey())
          .addColumn("code_sealed", "text", (c) => c.notNull())
          .addColumn("asked_at", "text", (c) => c.notNull())
          .execute();
        await db.schema.alterTable("purchase_checks").addColumn("token_id", "text").execute();
        await db.schema.alterTable("purchase_checks").addColumn("client_hash", "text").execute();
        await db.schema
          .alterTable("purchase_checks")
          .addColumn("shared_suspected", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createTable("purchase_settings")
          .addColumn("name", "text", (c) => c.primaryKey())
          .addColumn("value", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addColumn("updated_by", "text")
          .execute();
        await db.schema
          .createTable("item_settings")
          .addColumn("item_id", "integer", (c) => c.primaryKey())
          .addColumn("renewal_url", "text")
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addColumn("updated_by", "text")
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("item_settings").execute();
        await db.schema.dropTable("purchase_settings").execute();
        await db.schema.alterTable("purchase_checks").dropColumn("shared_suspected").execute();
        await db.schema.alterTable("purchase_checks").dropColumn("client_hash").execute();
        await db.schema.alterTable("purchase_checks").dropColumn("token_id").execute();
        await db.schema.dropTable("purchase_rechecks").execute();
        await db.schema.dropTable("known_purchases").execute();
      },
    },
    // Bulk jobs settle each code like the single check (issue 33): a code refused after it was seen valid is revoked
    // and keeps what was bought then; one whose item service was down keeps the last verdict it had (JSON, through
    // their zod schemas: lib/contract/purchase-lifecycle.ts).
    "2026-12-26-002-bulk-lifecycle": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("bulk_job_codes").addColumn("previously_valid", "text").execute();
        await db.schema.alterTable("bulk_job_codes").addColumn("last_verdict", "text").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable("bulk_job_codes").dropColumn("last_verdict").execute();
        await db.schema.alterTable("bulk_job_codes").dropColumn("previously_valid").execute();
      },
    },
    // Licence activations (issue 34): each item's policy (off until an admin turns it on), every installed copy a
    // purchase code was activated on (by its keyed hash, never the code), and the Ed25519 key that signs the
    // licence API's answers (its private half sealed under the data key; the public half published).
    "2026-12-27-001-licences": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("licence_policies")
          .addColumn("item_id", "integer", (c) => c.primaryKey())
          .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("limits", "text", (c) => c.notNull())
          .addColumn("never_count", "text", (c) => c.notNull())
          .addColumn("revoked_deactivates", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addColumn("updated_by", "text")
          .execute();
        await db.schema
          .createTable("licence_activations")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("code_hash", "text", (c) => c.notNull())
          .addColumn("code_last4", "text", (c) => c.notNull())
          .addColumn("item_id", "integer", (c) => c.notNull())
          .addColumn("instance_kind", "text", (c) => c.notNull())
          .addColumn("instance", "text", (c) => c.notNull())
          .addColumn("instance_name", "text")
          .addColumn("counted", "integer", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("activated_at", "text", (c) => c.notNull())
          .addColumn("last_seen_at", "text", (c) => c.notNull())
          .addColumn("deactivated_at", "text")
          .addColumn("deactivated_by", "text")
          .addColumn("deactivation_reason", "text")
          .execute();
        await db.schema
          .createIndex("licence_activations_instance")
          .on("licence_activations")
          .columns(["code_hash", "item_id", "instance_kind", "instance"])
          .unique()
          .execute();
        await db.schema
          .createTable("licence_signing_keys")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("public_key", "text", (c) => c.notNull())
          .addColumn("private_sealed", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("licence_signing_keys").execute();
        await db.schema.dropTable("licence_activations").execute();
        await db.schema.dropTable("licence_policies").execute();
      },
    },
  };
}
