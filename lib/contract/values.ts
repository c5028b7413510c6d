// The contract's plain values: every enum, limit and default of the portal API, as lists and numbers without
// zod. The schemas in this folder are built from them, the OpenAPI document states them, and pages import them
// from here (importing a schema would put zod into the browser's bundle), so a value is written once.

// ---------------------------------------------------------------------------------------------------------
// Lists and pages

/** The page sizes every paged list accepts. */
export const PER_PAGE_CHOICES = [10, 25, 50, 100] as const;
export type PerPage = (typeof PER_PAGE_CHOICES)[number];

/**
 * The page size when a request names none. The reports API applies its own default to reports and projects
 * (10, as its document says; Gatehouse passes the request on without one); Gatehouse's own lists use 25.
 */
export const DEFAULT_PER_PAGE = {
  reports: 10,
  projects: 10,
  alerts: 25,
  items: 25,
  purchaseHistory: 25,
  supportExpiring: 25,
  bulkResults: 50,
  audit: 25,
} as const satisfies Record<string, PerPage>;

/** The highest page number a list accepts. */
export const MAX_PAGE = 999_999;

export const SORT_DIRECTIONS = ["desc", "asc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Search text and names in a query: at most this many characters, no control characters. */
export const MAX_SEARCH_LENGTH = 255;

/** Who did something, in a filter: a user id or an email of at most this many characters. */
export const MAX_USER_FILTER_LENGTH = 320;

// ---------------------------------------------------------------------------------------------------------
// Reports and projects (area A: the values its document gives)

export const REPORT_RESULTS = ["good", "decent", "bad"] as const;
/**
 * A report page's password (privacy 2): the reports API sets no rule, so Gatehouse does. Visitors type it, and a
 * page shared by link is open to guessing: at least 8 characters, as for any password a person chooses.
 */
export const REPORT_PASSWORD_MIN_LENGTH = 8;
export const REPORT_PASSWORD_MAX_LENGTH = 255;
export type ReportResult = (typeof REPORT_RESULTS)[number];

/** 0 Public, 1 Private, 2 Password. */
export const REPORT_PRIVACY = [0, 1, 2] as const;
export type ReportPrivacy = (typeof REPORT_PRIVACY)[number];
export const PRIVACY_NAMES: Record<ReportPrivacy, string> = { 0: "Public", 1: "Private", 2: "Password" };

export const REPORT_SORT_FIELDS = ["id", "generated_at", "url", "result"] as const;
export type ReportSortField = (typeof REPORT_SORT_FIELDS)[number];
export const PROJECT_SORT_FIELDS = ["created_at", "project"] as const;
export type ProjectSortField = (typeof PROJECT_SORT_FIELDS)[number];

/** The reports API's own sort when a request names none. */
export const DEFAULT_SORT = {
  reports: { sort_by: "id", sort: "desc" },
  projects: { sort_by: "created_at", sort: "desc" },
} as const satisfies Record<string, { sort_by: string; sort: SortDirection }>;

// ---------------------------------------------------------------------------------------------------------
// Reports over time: the result history, trends, schedules and regression alerts

/** How far back a trend looks, in days. */
export const TREND_DAYS = [30, 90, 365] as const;
export type TrendDays = (typeof TREND_DAYS)[number];
export const DEFAULT_TREND_DAYS: TrendDays = 30;

/** How Gatehouse came to see a result: an answer of the reports API, or a scheduled run. */
export const RESULT_SOURCES = ["list", "show", "create", "regenerate", "update", "schedule"] as const;
export type ResultSource = (typeof RESULT_SOURCES)[number];

/** Results from best to worst: a move to a later one is a drop. */
export const RESULT_RANK: Record<ReportResult, number> = { good: 0, decent: 1, bad: 2 };

export const SCHEDULE_FREQUENCIES = ["daily", "weekly"] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
/** ISO weekdays: 1 Monday … 7 Sunday. */
export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

export const RUN_STATUSES = ["running", "waiting", "done", "partial", "skipped", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_TRIGGERS = ["schedule", "manual"] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** When a project's drop makes an alert: any drop, only a drop to bad, or never. */
export const ALERT_RULES = ["any", "to_bad", "off"] as const;
export type AlertRule = (typeof ALERT_RULES)[number];
export const DEFAULT_ALERT_RULE: AlertRule = "any";
export const ALERT_RULE_NAMES: Record<AlertRule, string> = {
  any: "Any drop (good to decent or bad, decent to bad)",
  to_bad: "Only a drop to bad",
  off: "No alerts",
};
export const ALERT_STATUSES = ["unread", "acknowledged", "all"] as const;

// ---------------------------------------------------------------------------------------------------------
// The purchase checker

/** The longest code the API takes as sent: room for the invisible characters the normaliser removes. */
export const RAW_PURCHASE_CODE_MAX_LENGTH = 1000;
/** The longest code once cleaned: longer than any purchase code the item API issues. */
export const PURCHASE_CODE_MAX_LENGTH = 100;

/**
 * How strictly a code is read (PURCHASE_CODE_FORMAT): `auto` cleans it and sends a UUID in any of its pasted forms
 * in its canonical form; `uuid` does the same and refuses anything that cannot be a UUID before the upstream is
 * asked; `exact` only removes invisible characters.
 */
export const CODE_FORMATS = ["auto", "uuid", "exact"] as const;
export type PurchaseCodeFormat = (typeof CODE_FORMATS)[number];
export const DEFAULT_PURCHASE_CODE_FORMAT: PurchaseCodeFormat = "auto";

/**
 * A valid purchase's support: active, expired (the purchase is real; the buyer's support ended) or none (bought
 * without support). Shown apart from "invalid" everywhere: the single check, job results, the history and CSV.
 */
export const SUPPORT_STATES = ["active", "expired", "none"] as const;
export type SupportStateName = (typeof SUPPORT_STATES)[number];

/** revoked: the code was seen valid before and the item service refuses it now (a refunded or reversed sale). */
export const PURCHASE_OUTCOMES = ["valid", "invalid", "revoked", "failed"] as const;
export type PurchaseOutcome = (typeof PURCHASE_OUTCOMES)[number];

/**
 * Where a check was asked: the checker, a bulk job, a helpdesk (lookup, Help Scout's card), or Gatehouse itself
 * (sweep: the paced re-verification of valid codes, and the re-check of a code answered from its last verdict
 * while the item service was down).
 */
export const PURCHASE_CHECK_SOURCES = ["single", "bulk", "helpdesk", "sweep", "licence"] as const;
export type PurchaseCheckSource = (typeof PURCHASE_CHECK_SOURCES)[number];

// ---------------------------------------------------------------------------------------------------------
// Helpdesks: the purchase check beside a ticket

/** The helpdesks a ticket may come from. */
export const HELPDESK_SYSTEMS = ["zendesk", "freshdesk", "helpscout", "other"] as const;
export type HelpdeskSystem = (typeof HELPDESK_SYSTEMS)[number];
/** Codes one lookup checks at most; more are counted, not checked. */
export const HELPDESK_MAX_CODES = 10;
/** The longest ticket text a lookup reads (subject and messages): a long thread, not a mailbox. */
export const HELPDESK_MAX_TEXT_LENGTH = 100_000;
export const HELPDESK_TICKET_ID_MAX_LENGTH = 100;
export const HELPDESK_TICKET_URL_MAX_LENGTH = 2000;
/** A ticket named in a filter or the checker's address: its helpdesk and its id there, `zendesk:4211`. */
export const HELPDESK_TICKET_FILTER = new RegExp(
  `^(${HELPDESK_SYSTEMS.join("|")}):[\\x21-\\x7e]{1,${HELPDESK_TICKET_ID_MAX_LENGTH}}$`,
);
/** The `ticket` filter's value for a ticket (HELPDESK_TICKET_FILTER's form). */
export function ticketFilter(ticket: { system: string; id: string }): string {
  return `${ticket.system}:${ticket.id}`;
}
/** The ticket a `ticket` filter names; null when it is not HELPDESK_TICKET_FILTER's form. */
export function ticketOfFilter(value: string): { system: HelpdeskSystem; id: string } | null {
  if (!HELPDESK_TICKET_FILTER.test(value)) return null;
  const split = value.indexOf(":");
  return { system: value.slice(0, split) as HelpdeskSystem, id: value.slice(split + 1) };
}
/** A Help Scout conversation's address, for its agents (the link kept with its checks). */
export function helpScoutConversationUrl(id: string): string {
  return `https://secure.helpscout.net/conversation/${encodeURIComponent(id)}`;
}
/** Help Scout's secret for its dynamic app: Help Scout takes one of at most 40 characters. */
export const HELPSCOUT_SECRET_LENGTH = 40;
/** The checks Admin → Helpdesk lists per helpdesk. */
export const HELPDESK_LAST_LOOKUPS = 10;

export const BULK_JOB_STATUSES = ["queued", "running", "waiting", "done", "cancelled"] as const;
export type BulkJobStatus = (typeof BULK_JOB_STATUSES)[number];
export const BULK_CODE_STATUSES = ["pending", "valid", "invalid", "revoked", "failed", "cancelled"] as const;
export type BulkCodeStatus = (typeof BULK_CODE_STATUSES)[number];

/**
 * What a job's results may be filtered by: a code status, or one of three views a support desk asks for — valid
 * purchases whose support had expired when checked, codes refused as no purchase code (never sent, not "invalid"),
 * and failed rows that a re-check may pass.
 */
export const BULK_RESULT_FILTERS = [
  "valid",
  "support_expired",
  "invalid",
  "revoked",
  "refused",
  "failed",
  "retryable",
  "pending",
  "cancelled",
] as const;
export type BulkResultFilter = (typeof BULK_RESULT_FILTERS)[number];
/** The longest search within a job's results. */
export const BULK_RESULT_SEARCH_MAX_LENGTH = 100;

/** Codes one bulk job may hold (before duplicates are merged). */
export const BULK_MAX_CODES = 500;

/** A bulk job's id: a UUID, in either letter case (the store keeps it in lower case). */
export const BULK_JOB_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------------------
// Accounts

/** A password's visible characters, at least (invisible ones do not count); the rest of the policy is ./password.ts. */
export const PASSWORD_MIN_LENGTH = 12;
/** scrypt hashes any length, but an unbounded input is a cheap way to make the server work hard. */
export const PASSWORD_MAX_LENGTH = 256;

export const ROLES = ["admin", "editor", "viewer", "support"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "reports:read",
  "reports:write",
  "projects:write",
  "items:read",
  /** The seller's own money (the account's balance): not support's business, whose work is the buyer's purchase. */
  "finances:read",
  "purchases:validate",
  /**
   * Checking codes and nothing else: a helpdesk's token (POST /api/helpdesk/lookup) never reads the history,
   * bulk jobs or the account.
   */
  "purchases:check",
  /** The purchase lifecycle's settings (the sweep, support notices, the shared-code thresholds) and renewal links: admins. */
  "purchases:manage",
  /** Licence activations' policies per item and the signing key's page: admins. (Support resets activations with purchases:validate.) */
  "licences:manage",
  "users:manage",
  "audit:read",
  "webhooks:manage",
  "upstream:manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * What an API token may be allowed to do: the permissions of the roles' everyday work. Never managing users,
 * webhooks or upstream keys: those stay with a signed-in admin.
 */
export const TOKEN_SCOPES = [
  "reports:read",
  "reports:write",
  "projects:write",
  "items:read",
  "finances:read",
  "purchases:validate",
  "purchases:check",
  "audit:read",
] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/** The lifetimes a token may be given in days; or an exact date (at most MAX_TOKEN_DAYS away), or never (service accounts). */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const MAX_TOKEN_DAYS = 366;
/** Every secret starts with this, so that secret scanners (GitHub's, gitleaks) can find a leaked one. */
export const TOKEN_PREFIX = "gth_";
/** Client address ranges one token may list. */
export const MAX_TOKEN_IP_RANGES = 20;
/** Active (neither revoked nor expired) tokens one owner may have: enough for every integration, not a flood. */
export const MAX_ACTIVE_TOKENS_PER_OWNER = 25;
/** A token's own per-minute limit: 1 to this many requests a minute (null: only its owner's limit). */
export const MAX_TOKEN_RATE_LIMIT_PER_MINUTE = 100_000;
/** A token's own monthly quota: 1 to this many requests a calendar month, UTC (null: none). */
export const MAX_TOKEN_MONTHLY_QUOTA = 1_000_000_000;
/**
 * How a request with a token ended, as its usage counts it: ok (2xx, 3xx), refused (another 4xx of the request
 * itself: bad input, not found), denied (refused before its limits were counted: a scope it lacks), limited (its
 * per-minute limit, its owner's or its monthly quota: 429), upstream_error (an upstream failed: 502, 503, 504,
 * an upstream's 429), error (500).
 */
export const TOKEN_USAGE_OUTCOMES = ["ok", "refused", "denied", "limited", "upstream_error", "error"] as const;
export type TokenUsageOutcome = (typeof TOKEN_USAGE_OUTCOMES)[number];
/** Days of usage the tokens page shows; rows are kept a few days longer (TOKEN_USAGE_KEEP_DAYS). */
export const TOKEN_USAGE_DAYS = 30;
export const TOKEN_USAGE_KEEP_DAYS = 35;

// ---------------------------------------------------------------------------------------------------------
// Webhooks

/** What an endpoint may subscribe to. */
export const WEBHOOK_EVENTS = [
  "purchase.checked",
  "purchase.revoked",
  "purchase.support_expiring",
  "purchase.shared_suspected",
  "licence.activated",
  "licence.deactivated",
  "licence.limit_reached",
  "bulk_job.finished",
  "report.created",
  "report.updated",
  "report.regenerated",
  "report.deleted",
  "report.result_changed",
  "project.deleted",
  "upstream.unavailable",
  "upstream.recovered",
  "upstream.key_rejected",
  "upstream.key_restored",
  // A person's second factors (issue 36): one enrolled or removed, a recovery code used, all reset by an operator.
  "account.factor_enrolled",
  "account.factor_removed",
  "account.recovery_code_used",
  "account.factors_reset",
  // An API token used the last request of its monthly quota (issue 37): once per token and month.
  "token.quota_reached",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
/** "Send test event" on one endpoint: delivered like every event, never subscribed to. */
export const WEBHOOK_TEST_EVENT = "webhook.test";
/** What a delivery can carry: the events, and the test event. */
export const WEBHOOK_DELIVERY_EVENTS = [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT] as const;
export type WebhookDeliveryEventType = (typeof WEBHOOK_DELIVERY_EVENTS)[number];
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

// ---------------------------------------------------------------------------------------------------------
// The audit log

export const AUDIT_ACTIONS = [
  "report.create",
  "report.update",
  "report.regenerate",
  "report.delete",
  "report.password_reveal",
  "project.delete",
  "project.schedule_update",
  "project.schedule_run",
  "project.alert_rule_update",
  // A team channel's subscriptions replaced by an admin (issue 35).
  "notification.channel_subscriptions_update",
  // What the notifications wait for, set by an admin.
  "notification.settings_update",
  "alert.acknowledge",
  "alert.unacknowledge",
  "purchase.validate",
  "purchase.bulk_create",
  "purchase.bulk_cancel",
  "purchase.bulk_recheck",
  // A helpdesk ticket's codes checked (issue 32): by a token's lookup, or by Help Scout's signed request.
  "purchase.helpdesk_lookup",
  // The purchase lifecycle (issue 33): its settings saved, an item's renewal link set, a sweep started by hand.
  "purchase.lifecycle_update",
  "purchase.renewal_update",
  "purchase.sweep_run",
  // Licence activations (issue 34): an item's policy saved; one activation, or every one of a code, reset by staff.
  "licence.policy_update",
  "licence.reset",
  "user.create",
  "user.update",
  "user.delete",
  "user.unlock",
  // The audit log downloaded for a range (issue 37): who took a copy of it, and which.
  "audit.export",
  "auth.login",
  "auth.login_failed",
  "auth.logout",
  // Single sign-on: a sign-in, a refusal (at sign-in or at a re-check), and a role taken from the provider's groups.
  "auth.sso_login",
  "auth.sso_refused",
  // Second factors (issue 36): the second step of a sign-in refused, a fresh proof for a sensitive action (step-up)
  // given or refused, a factor enrolled or removed, a recovery code used, the codes made anew, every factor of a
  // person reset (by an operator), and the admin's policy changed.
  "auth.second_factor_failed",
  "auth.step_up",
  "auth.step_up_failed",
  "auth.factor_enrolled",
  "auth.factor_removed",
  "auth.recovery_code_used",
  "auth.recovery_codes_regenerated",
  "auth.factors_reset",
  "auth.factor_policy_update",
  "user.sso_role",
  "token.create",
  "token.revoke",
  "token.new_address",
  "token.limits_change",
  "webhook.create",
  "webhook.update",
  "webhook.delete",
  "webhook.redeliver",
  "webhook.test",
  "webhook.disabled",
  // Upstream keys kept in the portal (issue 20): a key saved (a rotation), a stored key made active again (an
  // undo), one removed, and the upstream rejecting the key in use (written by Gatehouse itself, no user).
  "upstream.key_set",
  "upstream.key_restored",
  "upstream.key_removed",
  "upstream.key_rejected",
  // Help Scout's secret (issue 32): made or rotated, and removed, on Admin → Helpdesk. The row never holds it.
  "helpdesk.secret_set",
  "helpdesk.secret_removed",
  // Notifications (issue 35): a channel added, changed, removed or sent a test; the mail server set, removed or
  // sent a test; a person's one-click unsubscribe. The rows never hold a webhook URL or a password.
  "notification.channel_create",
  "notification.channel_update",
  "notification.channel_delete",
  "notification.channel_test",
  "notification.smtp_set",
  "notification.smtp_remove",
  "notification.smtp_test",
  "notification.unsubscribe",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What happened: success, failure (it did not happen), denied (refused by a permission or a limit). A purchase
 * check says what it found instead of "success": valid, invalid, or failed (no answer could be had).
 */
export const AUDIT_OUTCOMES = ["success", "failure", "denied", "valid", "invalid", "failed"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AUDIT_TARGET_TYPES = [
  "report",
  "project",
  "user",
  "purchase_code",
  "token",
  "webhook",
  "upstream_area",
  "notification_channel",
] as const;

// ---------------------------------------------------------------------------------------------------------
// Second factors (issue 36)

/** What a person can enrol beside his password: passkeys (WebAuthn), an authenticator app (TOTP), recovery codes. */
export const FACTOR_KINDS = ["passkey", "totp", "recovery_codes"] as const;
export type FactorKind = (typeof FACTOR_KINDS)[number];
/** Who must have a second factor: nobody (those who enrolled one still use it), admins, or everyone. */
export const SECOND_FACTOR_POLICIES = ["off", "admins", "everyone"] as const;
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number];
/** How a proof is given: the second step of a sign-in takes the first three, a step-up also the password. */
export const PROOF_METHODS = ["passkey", "totp", "recovery", "password"] as const;
export type ProofMethod = (typeof PROOF_METHODS)[number];
/** A sensitive action needs a proof (a sign-in, a second step or a step-up) at most this old. */
export const STEP_UP_MINUTES = 5;
/** How long the second step of a sign-in may wait after the password. */
export const SECOND_STEP_MINUTES = 5;
/** Recovery codes made at once; each used once. */
export const RECOVERY_CODE_COUNT = 10;
/** Passkeys one person may register. */
export const MAX_PASSKEYS_PER_USER = 20;

/**
 * Notifications (issue 35): what a person or a team channel can subscribe to. Each is sent when the change has
 * lasted (lib/notifications), a recovery once after its alert.
 */
export const NOTIFICATION_TOPICS = [
  "report.regressed",
  "report.recovered",
  "upstream.key_rejected",
  "upstream.key_restored",
  "upstream.down",
  "upstream.up",
  "bulk.finished",
  "purchase.revoked",
  "purchase.support_expiring",
  "licence.limit_reached",
  "token.quota_reached",
] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];
/** Where a team's messages go: a Slack or Microsoft Teams incoming webhook, or an e-mail address. */
export const NOTIFICATION_CHANNEL_KINDS = ["slack", "teams", "email"] as const;
export type NotificationChannelKind = (typeof NOTIFICATION_CHANNEL_KINDS)[number];
/** How the mail server is spoken to: STARTTLS after a plain greeting (587), or TLS from the first byte (465). */
export const NOTIFICATION_SMTP_SECURITY = ["starttls", "tls"] as const;
/** Who receives a notification: a person (by e-mail, to the address of his account) or a team channel. */
export const NOTIFICATION_SUBSCRIBER_KINDS = ["user", "channel"] as const;
export type NotificationSubscriberKind = (typeof NOTIFICATION_SUBSCRIBER_KINDS)[number];
/**
 * A message's delivery: held (waiting for quiet hours to end or for repeats to merge), pending (due, tried until
 * sent), sent, failed (retries spent), dropped (its recipient or channel is gone, or he unsubscribed meanwhile).
 */
export const NOTIFICATION_DELIVERY_STATUSES = ["held", "pending", "sent", "failed", "dropped"] as const;
export type NotificationDeliveryStatus = (typeof NOTIFICATION_DELIVERY_STATUSES)[number];

/** Whether `value` is one of `values` (a query parameter, a stored string), typed as that value. */
export function isOneOf<T extends string | number>(values: readonly T[], value: unknown): value is T {
  return (values as readonly unknown[]).includes(value);
}
