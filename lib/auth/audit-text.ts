// The audit log in words: what a row's detail says, for a person reading the ledger (the table, the API's
// `summary`). Pure and dependency-free: the API and the page use the same sentences.
import type { AuditRecordOutput } from "@/lib/contract/audit";
import { isOneOf, PRIVACY_NAMES, REPORT_PRIVACY, type AuditAction, type AuditOutcome } from "@/lib/contract/values";

import type { AuditRecord } from "./audit";

export interface AuditRowFacts {
  action: AuditAction;
  outcome: AuditOutcome;
  target: { type: string; id: string; label?: string | null; name?: string | null } | null;
  detail: Record<string, unknown> | null;
}

export const AUDIT_OUTCOME_LABELS: Record<AuditOutcome, string> = {
  success: "Done",
  failure: "Failed",
  denied: "Refused",
  valid: "Valid",
  invalid: "Invalid",
  failed: "No answer",
};

/** Why a request failed or was refused, from the gateway's error code. */
const ERROR_WORDS: Record<string, string> = {
  forbidden: "the role does not allow it",
  csrf: "it did not come from Gatehouse's own pages",
  rate_limited: "a rate limit was reached",
  not_found: "it does not exist",
  invalid_input: "the input was refused",
  invalid_json: "the input was not valid JSON",
  payload_too_large: "the input was too large",
  email_taken: "the email is already taken",
  last_admin: "it would have left no admin who can sign in",
  area_not_configured: "the service is not configured",
  upstream_auth: "the service refused Gatehouse's key",
  upstream_unreachable: "the service could not be reached",
  upstream_timeout: "the service did not answer in time",
  upstream_unavailable: "the service was not answering (circuit open)",
  upstream_rate_limited: "the service was rate limiting",
  upstream_bad_response: "the service sent an answer Gatehouse cannot use",
  upstream_error: "the service answered with an error",
  server_busy: "Gatehouse was too busy",
  internal: "of an error inside Gatehouse",
};

/** Why a single sign-on was refused or ended, from detail.reason (lib/auth/oidc/sign-in.ts writes them). */
const SSO_REFUSAL_WORDS: Record<string, (d: Record<string, unknown>) => string> = {
  no_role: (d) =>
    d.claim_found === false
      ? `the provider sent no claim "${str(d.claim) ?? "groups"}" to map to a role`
      : `no value of the claim "${str(d.claim) ?? "groups"}" maps to a role`,
  email_taken: (d) =>
    `another Gatehouse account already has this email, and it is not taken over${str(d.subject) ? ` (to let this person in on that account: npm run users -- link-sso <email> ${str(d.subject)})` : ""}`,
  email_missing: () => "the provider gave no email address",
  disabled: () => "the account is disabled in Gatehouse",
  denied: () => "the person did not allow it at the provider",
  ended: () => "the provider no longer confirms the sign-in (the account may be disabled or signed out there)",
  unconfirmed: () => "the provider could not be reached to re-check it in time",
  state: () => "it did not start in this browser, or took too long",
  code_rejected: () => "the provider refused the code (used already, or expired)",
  token_invalid: () => "the provider's answer did not verify (ID token)",
  client_rejected: () => "the provider refused Gatehouse's client id or secret",
  unavailable: () => "the provider did not answer",
  misconfigured: () => "the provider refused the request as Gatehouse is set up (scopes, redirect URI or client)",
  failed: () => "the provider answered with an error",
};

const FIELD_WORDS: Record<string, string> = {
  privacy: "page privacy",
  password: "password",
  results: "results",
  name: "name",
  role: "role",
  disabled: "access",
};

const list = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
const str = (value: unknown) => (typeof value === "string" ? value : null);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A purchase code as the log may show it: its last 4 characters when kept, else that it is too short to show. */
export function purchaseCodeText(detail: Record<string, unknown> | null): string {
  const last4 = str(detail?.last4);
  return last4 ? `code ending ${last4}` : "a code (too short to show any of it)";
}

/** The row's detail as one sentence; "" when there is nothing to add to the action and its target. */
export function auditSummary(row: AuditRowFacts): string {
  const d = row.detail ?? {};
  const errorCode = str(d.error_code);
  const why = errorCode ? (ERROR_WORDS[errorCode] ?? errorCode.replace(/_/g, " ")) : null;
  const status = typeof d.status === "number" ? ` (HTTP ${d.status})` : "";

  switch (row.action) {
    case "auth.login_failed":
      if (d.reason === "password_login_off")
        return "Refused: password sign-in is off, and this is not the break-glass admin.";
      if (d.reason === "throttled") {
        return d.limited_by === "ip"
          ? "Refused without checking the password: too many failed sign-ins from this address."
          : "Refused without checking the password: too many failed sign-ins for this email from this address.";
      }
      return "Wrong email or password.";
    case "purchase.validate": {
      const code = purchaseCodeText(d);
      if (row.outcome === "valid") return `Checked ${code}: a valid purchase.`;
      if (row.outcome === "invalid") return `Checked ${code}: not a valid purchase code.`;
      if (row.outcome === "denied") return `Not checked (${code}): ${why ?? "refused"}.`;
      return `No answer for ${code}: ${why ?? "the check failed"}${status}.`;
    }
    case "purchase.bulk_create":
      if (why) return `Not started: ${why}${status}.`;
      return typeof d.total === "number" ? `Bulk check of ${plural(d.total, "code")} started.` : "Bulk check started.";
    case "purchase.bulk_recheck":
      if (why) return `Not re-checked: ${why}${status}.`;
      return typeof d.rechecked === "number"
        ? `${plural(d.rechecked, "failed code")} sent to be checked again.`
        : "Failed codes sent to be checked again.";
    case "auth.sso_login":
      return `Signed in with ${str(d.provider) ?? "single sign-on"}${str(d.role) ? ` as ${d.role}` : ""}${d.created === true ? "; the account was created at this first sign-in" : ""}${d.silent === true ? " (a silent re-check)" : ""}.`;
    case "auth.sso_refused": {
      const reason = SSO_REFUSAL_WORDS[str(d.reason) ?? ""]?.(d) ?? "the sign-in did not complete";
      return `${d.phase === "recheck" ? "Access ended at a re-check" : "Refused"}: ${reason}.`;
    }
    case "user.sso_role":
      return `Role changed from ${str(d.from) ?? "?"} to ${str(d.to) ?? "?"} by the provider's groups (${d.phase === "recheck" ? "at a re-check" : "at sign-in"}).`;
    case "upstream.key_set":
    case "upstream.key_restored":
    case "upstream.key_removed":
    case "upstream.key_rejected": {
      if (why) return `Not changed: ${why}${status}.`;
      const from = str(d.old_fingerprint);
      const to = str(d.new_fingerprint);
      if (row.action === "upstream.key_rejected")
        return `The upstream rejected the key ${from ?? "?"}${str(d.source) === "environment" ? " (set in the environment)" : ""}.`;
      if (row.action === "upstream.key_removed")
        return `Removed the key ${from ?? "?"}${to ? `; ${to} stays in use` : ""}.`;
      return `Key ${from ?? "none"} → ${to ?? "none"}${row.action === "upstream.key_restored" ? " (an earlier key restored)" : ""}.`;
    }
    case "helpdesk.secret_set":
      if (why) return `Not made: ${why}${status}.`;
      return `${d.rotated === true ? "Rotated" : "Made"} ${str(d.helpdesk) === "helpscout" ? "Help Scout's" : "the helpdesk's"} secret${d.rotated === true ? ": the old one is refused from now on" : ""}.`;
    case "helpdesk.secret_removed":
      if (why) return `Not removed: ${why}${status}.`;
      return `Removed ${str(d.helpdesk) === "helpscout" ? "Help Scout's" : "the helpdesk's"} secret: its requests are refused until a new one is made.`;
    case "user.create":
      if (why) return `Not added: ${why}${status}.`;
      return str(d.role) ? `Added with the role ${d.role}.` : "";
    default:
      break;
  }
  if (why) return `${row.outcome === "denied" ? "Refused" : "Failed"}: ${why}${status}.`;

  const changes = Array.isArray(d.changes) ? d.changes.filter((c): c is string => typeof c === "string") : [];
  if (row.action === "user.update" && changes.length > 0) {
    const parts = changes.map((change) => {
      if (change === "role" && str(d.role)) return `role set to ${d.role}`;
      if (change === "disabled" && typeof d.disabled === "boolean") return d.disabled ? "disabled" : "enabled";
      if (change === "password") return "password reset";
      if (change === "role_pinned" && typeof d.role_pinned === "boolean")
        return d.role_pinned ? "role pinned" : "role unpinned (the provider's groups decide)";
      return `${FIELD_WORDS[change] ?? change} changed`;
    });
    return `${capital(list(parts))}.`;
  }
  if (row.action === "report.update" && changes.length > 0) {
    const privacy = isOneOf(REPORT_PRIVACY, d.privacy) ? PRIVACY_NAMES[d.privacy] : undefined;
    return `Changed the ${list(changes.map((c) => FIELD_WORDS[c] ?? c))}${privacy ? ` (now ${privacy})` : ""}.`;
  }
  if (row.action === "report.regenerate") return "Results generated again.";
  return "";
}

/**
 * A row as the API shows it (GET /api/admin/audit, the export's NDJSON lines, the audit streams' messages): one
 * shape wherever a row leaves Gatehouse.
 */
export function auditRecordOutput(record: AuditRecord): AuditRecordOutput {
  return {
    id: record.id,
    at: record.at,
    user_id: record.userId,
    user_email: record.userEmail,
    user_name: record.userName,
    action: record.action,
    target: record.target,
    outcome: record.outcome,
    request_id: record.requestId,
    detail: record.detail,
    summary: auditSummary(record),
    count: record.count,
    last_at: record.lastAt,
  };
}
