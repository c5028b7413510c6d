// The audit log view's URL: filters (user, action, from, to) and paging, read leniently like the other lists
// (a bad value is dropped rather than failing the page). Pure and zod-free, for server page and browser alike.
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/auth/audit-actions";

import { PER_PAGE_CHOICES, readParam, type SearchParamsInput } from "./list-params";

export interface AuditViewQuery {
  user?: string;
  action?: AuditAction;
  /** YYYY-MM-DD (the whole day, UTC, as the API reads a bare date). */
  from?: string;
  to?: string;
  per_page?: number;
  page?: number;
}

export const AUDIT_DEFAULT_PER_PAGE = 25;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ORDER = ["user", "action", "from", "to", "per_page", "page"] as const;

function isDate(value: string | undefined): value is string {
  return value !== undefined && DATE.test(value) && !Number.isNaN(Date.parse(value));
}

export function parseAuditParams(params: SearchParamsInput): AuditViewQuery {
  const query: AuditViewQuery = {};
  const user = readParam(params, "user");
  if (user && user.length <= 320 && !/[\u0000-\u001f\u007f]/.test(user)) query.user = user;
  const action = readParam(params, "action");
  if (action && (AUDIT_ACTIONS as readonly string[]).includes(action)) query.action = action as AuditAction;
  const from = readParam(params, "from");
  const to = readParam(params, "to");
  if (isDate(from)) query.from = from;
  // A range that ends before it starts finds nothing by definition; keep the start and drop the end.
  if (isDate(to) && !(query.from && to < query.from)) query.to = to;
  const perPage = Number(readParam(params, "per_page"));
  if ((PER_PAGE_CHOICES as readonly number[]).includes(perPage)) query.per_page = perPage;
  const page = readParam(params, "page");
  if (page && /^[1-9]\d{0,5}$/.test(page)) query.page = Number(page);
  return query;
}

export function auditQueryString(query: AuditViewQuery): string {
  const params = new URLSearchParams();
  for (const name of ORDER) {
    const value = query[name];
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** "report.delete" → "Report deleted"; unknown actions are shown as they are. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "report.create": "Report created",
  "report.update": "Report changed",
  "report.delete": "Report deleted",
  "project.delete": "Project deleted",
  "purchase.validate": "Purchase code checked",
  "purchase.bulk_create": "Bulk check started",
  "purchase.bulk_cancel": "Bulk check cancelled",
  "user.create": "User added",
  "user.update": "User changed",
  "auth.login": "Signed in",
  "auth.login_failed": "Sign-in refused",
  "auth.logout": "Signed out",
};
