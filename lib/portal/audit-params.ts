// The audit log view's URL: filters (user, action, from, to) and paging, read leniently like the other lists
// (a bad value is dropped rather than failing the page). Pure and zod-free, for server page and browser alike.
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/contract/values";

import {
  parseWhoWhenPaging,
  queryString,
  readOneOf,
  type SearchParamsInput,
  type WhoWhenPagingQuery,
} from "./list-params";

export interface AuditViewQuery extends WhoWhenPagingQuery {
  action?: AuditAction;
}

const ORDER = ["user", "action", "from", "to", "per_page", "page"] as const;

export function parseAuditParams(params: SearchParamsInput): AuditViewQuery {
  const query: AuditViewQuery = parseWhoWhenPaging(params);
  const action = readOneOf(params, "action", AUDIT_ACTIONS);
  if (action) query.action = action;
  return query;
}

export function auditQueryString(query: AuditViewQuery): string {
  return queryString(query, ORDER);
}

/** GET /api/admin/audit's query: the view's, and the person's time zone, in which the API reads the days. */
export function auditApiQueryString(query: AuditViewQuery, zone: string): string {
  const dated = query.from !== undefined || query.to !== undefined;
  return queryString(dated ? { ...query, time_zone: zone } : query, [...ORDER, "time_zone"]);
}

/**
 * GET /api/admin/audit/export's URL for what the view shows: its filters (never its paging), the person's time
 * zone, and the format.
 */
export function auditExportHref(query: AuditViewQuery, zone: string, format: "ndjson" | "csv"): string {
  const dated = query.from !== undefined || query.to !== undefined;
  const search = queryString({ format, ...query, ...(dated ? { time_zone: zone } : {}) }, [
    "format",
    "user",
    "action",
    "from",
    "to",
    "time_zone",
  ]);
  return `/api/admin/audit/export${search}`;
}

/** "report.delete" → "Report deleted"; unknown actions are shown as they are. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "report.create": "Report created",
  "report.update": "Report changed",
  "report.regenerate": "Report regenerated",
  "report.delete": "Report deleted",
  "report.password_reveal": "Report password revealed",
  "project.delete": "Project deleted",
  "project.schedule_update": "Regeneration schedule changed",
  "project.schedule_run": "Scheduled regeneration started by hand",
  "project.alert_rule_update": "Alert rule changed",
  "notification.channel_subscriptions_update": "Channel's subscriptions changed",
  "notification.settings_update": "Notification settings changed",
  "alert.acknowledge": "Alerts acknowledged",
  "alert.unacknowledge": "Alerts acknowledged, undone",
  "purchase.validate": "Purchase code checked",
  "purchase.bulk_create": "Bulk check started",
  "purchase.bulk_cancel": "Bulk check cancelled",
  "purchase.bulk_recheck": "Bulk check's failed rows re-checked",
  "purchase.helpdesk_lookup": "Helpdesk ticket's codes checked",
  "purchase.lifecycle_update": "Purchase lifecycle settings saved",
  "purchase.renewal_update": "Item renewal link set",
  "purchase.sweep_run": "Purchase sweep started by hand",
  "licence.policy_update": "Licence policy saved",
  "licence.reset": "Licence activations reset",
  "user.create": "User added",
  "user.update": "User changed",
  "user.delete": "User removed",
  "user.unlock": "Failed sign-ins cleared",
  "audit.export": "Audit log exported",
  "auth.login": "Signed in",
  "auth.login_failed": "Sign-in refused",
  "auth.logout": "Signed out",
  "auth.sso_login": "Signed in with SSO",
  "auth.sso_refused": "SSO sign-in refused",
  "auth.second_factor_failed": "Second step refused",
  "auth.step_up": "Confirmed it was them",
  "auth.step_up_failed": "Confirmation refused",
  "auth.factor_enrolled": "Second factor added",
  "auth.factor_removed": "Second factor removed",
  "auth.recovery_code_used": "Recovery code used",
  "auth.recovery_codes_regenerated": "Recovery codes made anew",
  "auth.factors_reset": "Second factors reset",
  "auth.factor_policy_update": "Second-factor policy changed",
  "user.sso_role": "Role from SSO groups",
  "token.create": "API token created",
  "token.revoke": "API token revoked",
  "token.new_address": "API token used from a new address",
  "token.limits_change": "API token's limits changed",
  "webhook.create": "Webhook endpoint added",
  "webhook.update": "Webhook endpoint changed",
  "webhook.delete": "Webhook endpoint removed",
  "webhook.redeliver": "Webhook delivery sent again",
  "webhook.test": "Webhook test event sent",
  "webhook.disabled": "Webhook endpoint disabled after failing",
  "upstream.key_set": "Upstream key set",
  "upstream.key_restored": "Upstream key restored",
  "upstream.key_removed": "Upstream key removed",
  "upstream.key_rejected": "Upstream key rejected",
  "helpdesk.secret_set": "Helpdesk secret made",
  "helpdesk.secret_removed": "Helpdesk secret removed",
  "notification.channel_create": "Notification channel added",
  "notification.channel_update": "Notification channel changed",
  "notification.channel_delete": "Notification channel removed",
  "notification.channel_test": "Notification channel test message sent",
  "notification.smtp_set": "Mail server set",
  "notification.smtp_remove": "Mail server removed",
  "notification.smtp_test": "Mail server test mail sent",
  "notification.unsubscribe": "Unsubscribed from e-mail",
};
