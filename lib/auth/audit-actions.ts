// The audit log's vocabulary, apart from the store code so that API schemas and pages can name actions
// without loading server-only modules.

export const AUDIT_ACTIONS = [
  "report.create",
  "report.update",
  "report.delete",
  "project.delete",
  "purchase.validate",
  "purchase.bulk_create",
  "purchase.bulk_cancel",
  "user.create",
  "user.update",
  "user.delete",
  "auth.login",
  "auth.login_failed",
  "auth.logout",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OUTCOMES = ["success", "failure", "denied"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
