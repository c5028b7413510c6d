// The tables as Kysely sees them. Portable on purpose (SQLite and PostgreSQL):
// - timestamps are ISO 8601 UTC strings from Date#toISOString() in TEXT columns: fixed width, so they sort and
//   compare correctly as strings in both databases, read well in any SQL shell, and avoid pg returning BIGINT
//   epoch milliseconds as strings;
// - booleans are INTEGER 0/1 (SQLite has no boolean type);
// - user ids are random UUIDs generated in code (no dialect-specific identity columns, not guessable);
// - append-only logs use an auto-increment id (declared per dialect in the migration) to order rows that share
//   a timestamp.
import type { ColumnType, Generated, Selectable } from "kysely";

import type { Role } from "@/lib/contract/values";

import type {
  NotificationAttemptsTable,
  NotificationChannelsTable,
  NotificationConditionsTable,
  NotificationDeliveriesTable,
  NotificationDigestDueTable,
  NotificationDigestsTable,
  NotificationPreferencesTable,
  NotificationSettingsTable,
  NotificationSmtpTable,
  NotificationSubscriptionsTable,
} from "./schema-notifications";
import type {
  AuthChallengesTable,
  PasskeysTable,
  RecoveryCodesTable,
  SignInSettingsTable,
  TotpFactorsTable,
} from "./schema-factors";
export type * from "./schema-notifications";
import type { TokenQuotaReachedTable, TokenUsageDailyTable } from "./schema-token-usage";
export type * from "./schema-factors";
export type * from "./schema-audit-streams";
import type { AuditStreamCursorsTable, AuditStreamDeliveriesTable } from "./schema-audit-streams";
export type * from "./schema-token-usage";

export interface UsersTable {
  id: string;
  email: string; // stored trimmed and lowercased: unique case-insensitively
  name: string;
  role: Role;
  password_hash: string; // "scrypt$N$r$p$salt$hash", see lib/auth/password.ts
  disabled: number; // 0 | 1
  session_version: number; // bumped to end every session of the user at once
  /** 0 | 1: a service account, which never signs in interactively and acts through API tokens only. */
  service: ColumnType<number, number | undefined, number>;
  created_at: string;
  updated_at: string;
  /** Single sign-on: the provider's issuer and `sub`, by which the user is matched; null for password users. */
  oidc_issuer: ColumnType<string | null, string | null | undefined, string | null>;
  oidc_subject: ColumnType<string | null, string | null | undefined, string | null>;
  /** 0 | 1: an admin pinned the role, so sign-ins no longer take it from the provider's groups. */
  role_pinned: ColumnType<number, number | undefined, number>;
  last_sign_in_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The IANA time zone he picked; null: his browser's. */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One single sign-on session (its id rides in the session cookie): what the re-check and the provider's logout need. */
export interface SsoSessionsTable {
  id: string; // UUID
  user_id: string;
  issuer: string;
  subject: string;
  refresh_token_sealed: string | null; // AES-256-GCM, key derived from SESSION_SECRET (lib/auth/oidc/sessions.ts)
  id_token_sealed: string | null; // for id_token_hint at the provider's logout
  created_at: string;
  checked_at: string; // the last time the provider confirmed the user (sign-in or re-check)
  check_lease_until: string | null; // a re-check in progress (one process at a time), or a failed one's back-off
  expires_at: string; // the session's absolute end: the row may go after it
  ended_no_role: string | null; // JSON {claim, values}: the provider's groups gave no role any more (tokens dropped)
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  user_id: string | null; // null for actions without a signed-in user (CLI, failed logins of unknown emails)
  user_email: string | null; // kept as it was at the time, so the row reads the same after a user changes
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: string;
  request_id: string | null;
  detail: string | null; // JSON object
  /** How many times this row happened: repeated denials are collapsed into one row (first at `at`, last at `last_at`). */
  repeat_count: ColumnType<number, number | undefined, number>;
  last_at: string | null;
  /** The target's name when the row was written (a report's URL, a user's email), to read the row by. */
  target_label: string | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  email: string;
  ip: string | null;
  at: string;
}

/** One purchase check, single or bulk. The code is kept only as a keyed hash and its last 4 characters. */
export interface PurchaseChecksTable {
  id: Generated<number>;
  checked_at: string;
  user_id: string | null;
  user_email: string | null; // as it was at the time
  code_hash: string; // HMAC-SHA256 hex under PURCHASE_CODE_HASH_KEY, of the cleaned code
  code_last4: string;
  outcome: string; // PURCHASE_OUTCOMES: valid | invalid | revoked | failed
  reason: string | null;
  item_id: number | null;
  item_name: string | null;
  license_type: string | null;
  supported_until: string | null;
  source: string; // PURCHASE_CHECK_SOURCES: single | bulk | helpdesk | sweep
  bulk_job_id: string | null;
  request_id: string | null;
  ticket_system: string | null; // HELPDESK_SYSTEMS: the ticket a check was made for
  ticket_id: string | null;
  ticket_url: string | null;
  token_id: string | null; // the API token that asked, when one did
  client_hash: string | null; // keyed hash of the client's address (never the address), when Gatehouse knows it
  shared_suspected: Generated<number>; // 1: the code was flagged "possibly shared" by this check
}

/** A code seen valid: what was bought, and whether the item service still says so (lib/purchases/lifecycle.ts). */
export interface KnownPurchasesTable {
  code_hash: string; // the same keyed hash as purchase_checks.code_hash
  code_last4: string;
  item_id: number;
  item_name: string;
  license_type: string;
  supported_until: string | null;
  sold_at: string | null; // the purchase's date
  first_valid_at: string;
  last_valid_at: string;
  status: string; // valid | revoked
  verified_at: string; // the item service's last answer about it (the sweep re-checks the oldest first)
  revoked_at: string | null;
  code_sealed: string | null; // only while the sweep covers it; forgotten when it leaves
  support_notice_for: string | null; // the supported_until its purchase.support_expiring event was sent for
  shared_flagged_at: string | null; // when purchase.shared_suspected was sent
}

/** A code answered from its last verdict while the item service was down: re-checked when it answers again. */
export interface PurchaseRechecksTable {
  code_hash: string;
  code_sealed: string;
  asked_at: string;
}

/** The purchase checker's settings an admin makes (name "lifecycle": JSON read through its zod schema). */
export interface PurchaseSettingsTable {
  name: string;
  value: string;
  updated_at: string;
  updated_by: string | null;
}

/** What an admin adds to an item: its renewal link, shown where support has ended or ends soon. */
export interface ItemSettingsTable {
  item_id: number;
  renewal_url: string | null;
  updated_at: string;
  updated_by: string | null;
}

export interface LicencePoliciesTable {
  item_id: number;
  enabled: number; // 0 | 1: the licence API answers for this item only when 1
  limits: string; // JSON: activations allowed per licence type (lib/contract/licences.ts LicenceLimitsSchema)
  never_count: string; // JSON: domain patterns whose activations never count
  revoked_deactivates: number; // 0 | 1: a refunded or reversed purchase releases every activation
  updated_at: string;
  updated_by: string | null;
}

export interface LicenceActivationsTable {
  id: string; // "act_" + random
  code_hash: string; // the same keyed hash as purchase_checks.code_hash
  code_last4: string;
  item_id: number;
  instance_kind: string; // domain | id
  instance: string; // normalised (lib/licences/instances.ts)
  instance_name: string | null;
  counted: number; // 0 | 1: a never-counted domain (localhost, *.test) takes no activation
  status: string; // active | deactivated
  activated_at: string;
  last_seen_at: string;
  deactivated_at: string | null;
  deactivated_by: string | null; // "copy" (the copy itself), "refund", or the staff member's email
  deactivation_reason: string | null;
}

export interface LicenceSigningKeysTable {
  id: string; // key id: the first 16 hex characters of the public key's SHA-256
  public_key: string; // raw 32 bytes, base64
  private_sealed: string; // PKCS#8 DER, base64, sealed under the data key
  created_at: string;
}

export interface BulkJobsTable {
  id: string; // UUID
  user_id: string;
  user_email: string;
  status: string; // queued | running | waiting | done | cancelled
  total: number; // distinct codes
  duplicates: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string;
  waiting_until: string | null;
}

export interface BulkJobCodesTable {
  job_id: string;
  idx: number; // position of the code's first appearance in the batch
  code_sealed: string; // the code, encrypted at rest (lib/purchases/bulk/code-seal.ts); needed to check it and for the CSV
  code_hash: string;
  code_last4: string;
  occurrences: number;
  status: string; // BULK_CODE_STATUSES: pending | valid | invalid | revoked | failed | cancelled
  refused: number; // 0 | 1: the normaliser refused it, so it never reached the upstream (and costs no allowance)
  reason: string | null;
  notes: string | null; // JSON array of sentences
  item_id: number | null;
  item_name: string | null;
  license_type: string | null;
  supported_until: string | null;
  checked_at: string | null;
  attempts: Generated<number>;
  retryable: Generated<number>; // 0 | 1: a failed check that may pass when tried again (network, timeout, 429, 5xx)
  check_started_at: string | null; // a check of this pending code is under way since then: a cancel lets it land
  not_before: string | null; // a pending code backed off after a transient failure is not checked before then
  transient_failures: Generated<number>; // failures a later try may pass (network, timeout, 5xx), of this pending code
  previously_valid: string | null; // revoked: JSON PreviousPurchase, what was bought when it was last valid
  last_verdict: string | null; // failed while the item service was down: JSON LastVerdict, the code's last verdict
}

/** Each re-check of a job's failed rows: its codes count against the hourly allowance like a batch's. */
export interface BulkRechecksTable {
  id: string;
  job_id: string;
  user_id: string;
  created_at: string;
  codes: number;
}

/** Which password hashes were already checked against the demo password (lib/auth/demo-accounts.ts). */
export interface PasswordScreeningTable {
  user_id: string;
  password_hash: string; // the hash checked; a new hash (password changed or rehashed) is checked again
  screened_at: string;
}

/** One result of one report, once per distinct generated_at (lib/reports/history.ts). */
export interface ReportResultsTable {
  id: Generated<number>;
  report_id: number;
  url: string;
  project: string | null;
  result: string; // good | decent | bad
  generated_at: string;
  day: string; // YYYY-MM-DD of generated_at in UTC: what the trends group by
  seen_at: string; // when Gatehouse first saw it
  source: string; // list | show | create | regenerate | update | schedule
}

/** Each report's newest result as Gatehouse knows it (kept with the history): what a project's mix counts. */
export interface ReportLatestTable {
  report_id: number;
  url: string;
  project: string | null;
  result: string;
  generated_at: string;
  history_id: number;
}

/** A project's scheduled regeneration. */
export interface ReportSchedulesTable {
  project: string;
  enabled: number; // 0 | 1
  frequency: string; // daily | weekly
  weekday: number | null; // 1 Monday … 7 Sunday, weekly only
  time: string; // HH:MM local
  time_zone: string; // IANA
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
}

/** One run of a schedule (or a "run now"); the job that runs it is the job system's (lib/reports/schedule-jobs.ts). */
export interface ReportScheduleRunsTable {
  id: string; // UUID
  project: string;
  trigger: string; // schedule | manual
  status: string; // running | waiting | done | partial | skipped | failed
  due_at: string;
  started_at: string;
  finished_at: string | null;
  total: number | null;
  done: number;
  failed: number;
  cursor: number; // the last report id handled: a run's job that runs again resumes after it
  outcome: string | null;
}

export interface ReportAlertRulesTable {
  project: string;
  rule: string; // any | to_bad | off
  updated_at: string;
  updated_by: string | null;
}

/** A drop of a report's result: one per history row that dropped. */
export interface ReportAlertsTable {
  id: Generated<number>;
  history_id: number; // unique: the row that dropped
  report_id: number;
  url: string;
  project: string | null;
  from_result: string;
  to_result: string;
  generated_at: string;
  created_at: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
}

/** The page password Gatehouse set on a report, sealed (lib/reports/share-password.ts), so an editor can reveal it. */
export interface ReportSharePasswordsTable {
  report_id: number;
  sealed: string;
  set_at: string;
  set_by: string | null;
}

/** An API token. The secret itself is never stored: only its SHA-256 (lib/tokens/secret.ts says why that is enough). */
export interface ApiTokensTable {
  id: string; // UUID
  user_id: string; // the owner: the token acts as him, within its scopes
  name: string;
  token_hash: string; // SHA-256 hex of the whole secret
  scopes: string; // JSON array of TOKEN_SCOPES
  allowed_ips: string | null; // JSON array of addresses and CIDR ranges; null: any address
  created_at: string;
  created_by: string | null; // the admin who made it for a service account, else the owner
  expires_at: string | null; // null: never (service accounts only)
  last_used_at: string | null; // written at most once a minute, or when the address changes
  last_used_ip: string | null;
  seen_addresses: string | null; // JSON array (capped) of the addresses it was used from: a new one is audited
  revoked_at: string | null;
  revoked_by: string | null;
  /** Its own limit of requests a minute (every instance counting one window); null: only its owner's limit. */
  rate_limit_per_minute: ColumnType<number | null, number | null | undefined, number | null>;
  /** Its own quota of requests a calendar month (UTC); null: none. */
  monthly_quota: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface WebhookEndpointsTable {
  id: string; // UUID
  url: string;
  description: string | null;
  events: string; // JSON array of WEBHOOK_EVENTS
  secret_sealed: string; // "whsec_…", sealed at rest (lib/webhooks/seal.ts): it is needed to sign
  previous_secret_sealed: string | null; // after a rotation, it signs too until previous_secret_until
  previous_secret_until: string | null;
  disabled: number; // 0 | 1
  disabled_reason: string | null;
  disabled_at: string | null;
  failing_since: string | null; // the first failed attempt since the last success
  created_at: string;
  updated_at: string;
  created_by: string | null;
}

/** One event for one endpoint: its id is the webhook-id of every attempt, retries and "Send again" included. */
export interface WebhookDeliveriesTable {
  id: string; // msg_…
  endpoint_id: string;
  event_type: string;
  payload: string; // the exact JSON body sent (signed as it is)
  status: string; // pending | delivered | failed
  attempts: ColumnType<number, number | undefined, number>;
  created_at: string;
  next_attempt_at: string | null; // when pending: not before this time
  last_attempt_at: string | null;
  last_status: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  endpoint_id: string;
  at: string;
  ok: number; // 0 | 1
  status_code: number | null;
  duration_ms: number;
  error: string | null; // why it failed without an answer (refused address, timeout, unreachable)
  response_excerpt: string | null; // the first bytes of the answer
}

/** An upstream key kept in the portal (lib/upstream/keys): never the key itself in clear. */
export interface UpstreamKeysTable {
  id: string; // UUID
  area: string; // "reports" | "items"
  sealed: string; // AES-256-GCM under GATEHOUSE_KEK, the area bound in as associated data (lib/seal.ts)
  fingerprint: string; // first 8 hex characters of the key's SHA-256: names it, reveals nothing
  last4: string;
  active: number; // 0 | 1: at most one active key per area
  created_at: string;
  created_by: string | null; // the admin's email
  activated_at: string | null;
  activated_by: string | null;
}

/** Per area: what every instance polls to switch keys without a restart, and the last rejection by the upstream. */
export interface UpstreamKeyStateTable {
  area: string;
  version: number; // bumped whenever the area's active key changes
  updated_at: string;
  rejected_at: string | null; // when the upstream last answered 401/403 to the key below
  rejected_fingerprint: string | null;
}

/** A job of the store's provider (lib/jobs/store.ts): waiting, or running while its lease holds. */
export interface JobsTable {
  id: string;
  kind: string;
  payload: string; // JSON, small (ids)
  run_at: string; // not before
  retries: ColumnType<number, number | undefined, number>;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
}

/** A kind's pause (a 429): no process takes its jobs before paused_until. */
export interface JobPausesTable {
  kind: string;
  paused_until: string;
}

/** Per helpdesk, what Gatehouse keeps to answer it (lib/purchases/helpscout.ts): Help Scout's signing secret. */
export interface HelpdeskSettingsTable {
  system: string; // HELPDESK_SYSTEMS: "helpscout"
  secret_sealed: string; // AES-256-GCM under the data key, the system bound in as associated data (lib/seal.ts)
  set_at: string;
  set_by: string | null; // the admin's email
}

export interface Database {
  users: UsersTable;
  audit_log: AuditLogTable;
  login_failures: LoginFailuresTable;
  purchase_checks: PurchaseChecksTable;
  known_purchases: KnownPurchasesTable;
  purchase_rechecks: PurchaseRechecksTable;
  purchase_settings: PurchaseSettingsTable;
  item_settings: ItemSettingsTable;
  licence_policies: LicencePoliciesTable;
  licence_activations: LicenceActivationsTable;
  licence_signing_keys: LicenceSigningKeysTable;
  notification_channels: NotificationChannelsTable;
  notification_smtp: NotificationSmtpTable;
  notification_subscriptions: NotificationSubscriptionsTable;
  notification_preferences: NotificationPreferencesTable;
  notification_conditions: NotificationConditionsTable;
  notification_deliveries: NotificationDeliveriesTable;
  notification_digests: NotificationDigestsTable;
  notification_digest_due: NotificationDigestDueTable;
  notification_attempts: NotificationAttemptsTable;
  notification_settings: NotificationSettingsTable;
  bulk_jobs: BulkJobsTable;
  bulk_job_codes: BulkJobCodesTable;
  bulk_rechecks: BulkRechecksTable;
  password_screening: PasswordScreeningTable;
  sso_sessions: SsoSessionsTable;
  report_results: ReportResultsTable;
  report_latest: ReportLatestTable;
  report_schedules: ReportSchedulesTable;
  report_schedule_runs: ReportScheduleRunsTable;
  report_alert_rules: ReportAlertRulesTable;
  report_alerts: ReportAlertsTable;
  report_share_passwords: ReportSharePasswordsTable;
  api_tokens: ApiTokensTable;
  token_usage_daily: TokenUsageDailyTable;
  token_quota_reached: TokenQuotaReachedTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  upstream_keys: UpstreamKeysTable;
  upstream_key_state: UpstreamKeyStateTable;
  jobs: JobsTable;
  job_pauses: JobPausesTable;
  helpdesk_settings: HelpdeskSettingsTable;
  passkeys: PasskeysTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  auth_challenges: AuthChallengesTable;
  sign_in_settings: SignInSettingsTable;
  audit_stream_cursors: AuditStreamCursorsTable;
  audit_stream_deliveries: AuditStreamDeliveriesTable;
}

export type UserRow = Selectable<UsersTable>;
export type AuditRow = Selectable<AuditLogTable>;

export type PurchaseCheckRow = Selectable<PurchaseChecksTable>;
export type BulkJobRow = Selectable<BulkJobsTable>;
export type BulkJobCodeRow = Selectable<BulkJobCodesTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type ReportScheduleRunRow = Selectable<ReportScheduleRunsTable>;
export type ReportAlertRow = Selectable<ReportAlertsTable>;
