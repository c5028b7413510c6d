// The audit log's vocabulary, apart from the store code so that API schemas and pages can name actions
// without loading server-only modules.

export const AUDIT_ACTIONS = [
  "report.create",
  "report.update",
  "report.regenerate",
  "report.delete",
  "project.delete",
  "purchase.validate",
  "purchase.bulk_create",
  "purchase.bulk_cancel",
  "user.create",
  "user.update",
  "user.delete",
  "user.unlock",
  "auth.login",
  "auth.login_failed",
  "auth.logout",
  // Single sign-on: a sign-in, a refusal (at sign-in or at a re-check), and a role taken from the provider's groups.
  "auth.sso_login",
  "auth.sso_refused",
  "user.sso_role",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What happened: success, failure (it did not happen), denied (refused by a permission or a limit). A purchase
 * check says what it found instead of "success": valid, invalid, or failed (no answer could be had).
 */
export const AUDIT_OUTCOMES = ["success", "failure", "denied", "valid", "invalid", "failed"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
