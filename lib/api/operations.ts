// Every operation of the portal API in one table: method, path, permission, upstream area, input schemas and
// the success answer. Route handlers are built from these entries (lib/api/route.ts) and /api/openapi.json is
// generated from them (lib/api/openapi.ts), so the contract lives here once. A new operation is one entry here
// (its schemas in lib/contract) and one route file under app/api: docs/architecture.md#adding-an-operation.
import type { z } from "zod";

import type { GuardedFields } from "@/lib/auth/permissions";

import {
  CurrentSessionSchema,
  LoginBodySchema,
  SsoStartQuerySchema,
  UserCreateBodySchema,
  UserIdParamsSchema,
  UserSchema,
  UserUpdateBodySchema,
} from "@/lib/contract/accounts";
import type { Area } from "@/lib/contract/areas";
import { AuditListQuerySchema, AuditRecordSchema } from "@/lib/contract/audit";
import { dataEnvelope, EmptyQuerySchema, pageEnvelope } from "@/lib/contract/common";
import { HealthSchema, ReadinessSchema } from "@/lib/contract/health";
import { AccountSchema, ItemIdParamsSchema, ItemSchema } from "@/lib/contract/items";
import { ProjectListQuerySchema, ProjectParamsSchema, ProjectSchema } from "@/lib/contract/projects";
import {
  BulkCreateBodySchema,
  BulkJobCsvParamsSchema,
  BulkJobIdParamsSchema,
  BulkJobSchema,
  BulkJobSummarySchema,
  BulkRecheckSchema,
  BulkResultsPageSchema,
  BulkResultsQuerySchema,
  PURCHASE_HISTORY_PAGING,
  PurchaseCheckSchema,
  PurchaseHistoryEntrySchema,
  PurchaseHistoryExportQuerySchema,
  PurchaseHistoryQuerySchema,
  PurchaseHistorySearchBodySchema,
  PurchaseValidateBodySchema,
} from "@/lib/contract/purchases";
import {
  AlertAckBodySchema,
  AlertAckSchema,
  AlertCountSchema,
  AlertListQuerySchema,
  AlertRuleBodySchema,
  AlertRuleSchema,
  AlertSchema,
  CompareQuerySchema,
  CompareSchema,
  ProjectMixSchema,
  ProjectScheduleSchema,
  ReportHistorySchema,
  RunSchema,
  ScheduleBodySchema,
  ScheduleSchema,
  SharePasswordSchema,
  TrendQuerySchema,
  TrendSchema,
} from "@/lib/contract/history";
import {
  WebhookCreateBodySchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliverySchema,
  WebhookIdParamsSchema,
  WebhookSchema,
  WebhookUpdateBodySchema,
  WebhookWithSecretSchema,
} from "@/lib/contract/webhooks";
import {
  CreatedTokenSchema,
  TokenCreateBodySchema,
  TokenIdParamsSchema,
  TokenListQuerySchema,
  TokenSchema,
} from "@/lib/contract/tokens";
import {
  KeyChangeResultSchema,
  KeyTestResultSchema,
  UpstreamAreaParamsSchema,
  UpstreamAreaStatusSchema,
  UpstreamKeyBodySchema,
  UpstreamKeyParamsSchema,
} from "@/lib/contract/upstream-keys";
import {
  ReportCreateBodySchema,
  ReportIdParamsSchema,
  ReportListQuerySchema,
  ReportSchema,
  ReportUpdateBodySchema,
} from "@/lib/contract/reports";
import { MAX_ACTIVE_TOKENS_PER_OWNER, RECENT_SIGN_IN_MINUTES } from "@/lib/contract/values";
import type {
  AuditAction,
  AuditOutcome,
  Permission as AccountPermission,
  WebhookEventType,
} from "@/lib/contract/values";

import type { ErrorCode } from "./errors";

/**
 * What a caller must be allowed to do: a permission of the accounts table (lib/auth/permissions.ts), "signed_in"
 * for anything any signed-in user may do, or "public" for operations that never need a session. Declared on
 * every operation; enforced by the permission step (lib/api/steps/who.ts).
 */
export type Permission = AccountPermission | "signed_in" | "public";

/** What an audited operation was about, from its validated input and its answer's `data`. */
export type AuditTargetSpec =
  | { type: "report"; id: string; label?: string | null }
  | { type: "project"; name: string }
  | { type: "user"; id: string; label?: string | null }
  | { type: "token"; id: string; label?: string | null }
  | { type: "webhook"; id: string; label?: string | null }
  | { type: "upstream_area"; id: string }
  /** The wrapper stores a keyed hash and the last 4 characters, never the code. */
  | { type: "purchase_code"; code: string };

export interface OperationEvent {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/** A report as an event carries it: what it is, never more than the API shows. */
function reportEventData(id: unknown, data?: unknown): Record<string, unknown> {
  return {
    report: {
      id: typeof id === "number" ? id : Number(text(id)),
      url: field(data, "url") ?? null,
      project: field(data, "project") ?? null,
      result: field(data, "result") ?? null,
      privacy: field(data, "privacy") ?? null,
    },
  };
}

export interface AuditFacts {
  /** The validated path parameters; as the path gave them when the request was refused before validation. */
  params: Record<string, unknown>;
  /** The validated body; empty when the request was refused before it was read. */
  body: Record<string, unknown>;
  /** The answer's `data`, on success. */
  data: unknown;
}

export interface AuditSpec {
  /** What was done; a function when one operation does several things (a report's update or regeneration). */
  action: AuditAction | ((facts: AuditFacts) => AuditAction);
  /** What happened, when "success" / "failure" / "denied" would not say it (a purchase check: valid, invalid, failed). */
  outcome?: (facts: AuditFacts, error: ErrorCode | null) => AuditOutcome;
  target?: (facts: AuditFacts) => AuditTargetSpec | null;
  /** Small facts worth keeping (never a credential: lib/auth/audit.ts refuses keys that look like one). */
  detail?: (facts: AuditFacts) => Record<string, string | number | boolean | null | string[]>;
}

const field = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
const text = (value: unknown): string | null =>
  typeof value === "string" || typeof value === "number" ? String(value) : null;
/** A report by id, with its URL when the answer carries it (the row then reads by name). */
function reportTarget(id: unknown, data?: unknown): AuditTargetSpec | null {
  const value = text(id);
  const url = field(data, "url");
  return value === null ? null : { type: "report", id: value, label: typeof url === "string" ? url : null };
}
/** A project by its name (the path parameter). */
function projectTarget(name: unknown): AuditTargetSpec | null {
  return typeof name === "string" && name !== "" ? { type: "project", name } : null;
}
/** An upstream area whose key changed. */
function upstreamAreaTarget(area: unknown): AuditTargetSpec | null {
  const value = text(area);
  return value === null ? null : { type: "upstream_area", id: value };
}
/** The fingerprints before and after a key change (never the key). */
function changeDetail(data: unknown): Record<string, string | null> {
  const change = field(data, "change");
  return {
    area: text(field(change, "area")),
    old_fingerprint: text(field(change, "old_fingerprint")),
    new_fingerprint: text(field(change, "new_fingerprint")),
  };
}
/** A user by id, with his email when the answer carries it. */
function userTarget(id: unknown, data?: unknown): AuditTargetSpec | null {
  const value = text(id);
  const email = field(data, "email");
  return value === null ? null : { type: "user", id: value, label: typeof email === "string" ? email : null };
}

/** An API token by id, with its name when the answer carries it. */
function tokenTarget(id: unknown, data?: unknown): AuditTargetSpec | null {
  const value = text(id);
  const name = field(data, "name");
  return value === null ? null : { type: "token", id: value, label: typeof name === "string" ? name : null };
}

/** A webhook endpoint by id, with its URL when the answer carries it. */
function webhookTarget(id: unknown, data?: unknown): AuditTargetSpec | null {
  const value = text(id);
  const url = field(data, "url");
  return value === null ? null : { type: "webhook", id: value, label: typeof url === "string" ? url : null };
}

/** The groups of the OpenAPI document, with what each holds. */
export const TAGS = {
  Reports: "Area A's web-page reports: list, show, create, change, regenerate and delete",
  Projects: "Area A's projects: list and delete (with their reports)",
  Trends: "Reports over time: each report's result history, results by day, each project's mix, two days compared",
  Schedules: "A project's scheduled regeneration (daily or weekly, in its time zone) and its runs",
  Alerts: "Regression alerts (a result that dropped) and each project's alert rule",
  Items: "Area B's seller account and items",
  Purchases: "Purchase-code checks: one code, bulk jobs of up to 500, and the history of every check",
  Accounts: "Signing in and out, and the current session",
  Tokens: "API tokens: scoped bearer credentials for scripts and integrations (managed with a signed-in session)",
  Admin: "Users, the audit log and webhook endpoints, for admins",
  Operations: "Liveness, readiness and this document: public, for load balancers and tools",
} as const;
export type Tag = keyof typeof TAGS;

export interface OperationSpec {
  /** The OpenAPI operationId. */
  id: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** OpenAPI-style path, e.g. "/api/reports/{id}". */
  path: string;
  summary: string;
  tag: Tag;
  permission: Permission;
  /**
   * Fields of the answer's `data` that only a caller with a further permission sees (for a token: its owner's role
   * and its scope). The wrapper removes them for anyone else (lib/api/route.ts); OpenAPI lists them.
   */
  guardedFields?: GuardedFields;
  /** The upstream area the operation needs; without it configured the route answers 503 area_not_configured. */
  area?: Area;
  params?: z.ZodType;
  query?: z.ZodType;
  /** Query parameters a caller may send and the operation ignores (a CSV takes its list's link as it is): never read, refused or documented. */
  ignoredQuery?: readonly string[];
  body?: z.ZodType;
  /** 302: to another site (the identity provider); 303: to a page of this site. Both with Location. */
  success: {
    status: 200 | 201 | 202 | 204 | 302 | 303;
    description: string;
    schema?: z.ZodType;
    contentType?: "text/csv";
  };
  /** A larger cap on the JSON body than MAX_BODY_BYTES (lib/api/steps/parse.ts), for batches. */
  maxBodyBytes?: number;
  /** The message of a 404 when the upstream says the resource does not exist; `{name}` takes the path parameter. */
  notFound?: string;
  /** Error codes this operation can answer beyond the ones every upstream operation can. */
  errors?: ErrorCode[];
  /** One audit row per call by a signed-in user, written by the wrapper (success, failure or denied). */
  audit?: AuditSpec;
  /** A per-user and per-address rate limit applies (PURCHASE_RATE_LIMIT_PER_USER / _PER_IP). */
  rateLimit?: "purchase";
  /** A public operation that still wants the caller's session when there is a valid one (sign-out). */
  optionalSession?: true;
  /** Only a signed-in session may do this, never an API token (managing tokens themselves). */
  sessionOnly?: true;
  /**
   * The webhook events a success can be (lib/events), declared as a list so that the table itself says which
   * operation emits what (tests/unit/lib/api/operations.test.ts holds every operation to its list); `describe`
   * picks one from the same facts as the audit row, after the answer is known, and a type outside `emits` is
   * never sent (lib/api/steps/events.ts). `code` turns a purchase code into its keyed hash and last 4
   * characters: an event never holds a code.
   */
  event?: {
    emits: readonly WebhookEventType[];
    describe: (facts: AuditFacts, code: (code: string) => { hash: string; last4: string }) => OperationEvent | null;
  };
  /**
   * The operation also takes its page's HTML form, posted without JavaScript (application/x-www-form-urlencoded,
   * with a `next` field): it then proves itself by its Origin instead of X-CSRF, and answers 303 — to `next` on
   * success, to `page?error=<code>&next=…` on failure — instead of JSON (lib/api/steps/parse.ts, answer.ts).
   */
  form?: { page: string };
}

export const operations = {
  listReports: {
    id: "listReports",
    method: "GET",
    path: "/api/reports",
    summary: "List reports, filtered, sorted and paginated",
    tag: "Reports",
    permission: "reports:read",
    area: "reports",
    query: ReportListQuerySchema,
    success: { status: 200, description: "One page of reports", schema: pageEnvelope(ReportSchema) },
  },
  showReport: {
    id: "showReport",
    method: "GET",
    path: "/api/reports/{id}",
    summary: "Show one report",
    tag: "Reports",
    permission: "reports:read",
    area: "reports",
    params: ReportIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The report", schema: dataEnvelope(ReportSchema) },
    notFound: "There is no report with id {id}.",
  },
  createReport: {
    id: "createReport",
    method: "POST",
    path: "/api/reports",
    summary: "Create a report for a web page",
    tag: "Reports",
    permission: "reports:write",
    area: "reports",
    query: EmptyQuerySchema,
    body: ReportCreateBodySchema,
    success: { status: 201, description: "The new report", schema: dataEnvelope(ReportSchema) },
    audit: {
      action: "report.create",
      target: ({ data }) => reportTarget(field(data, "id"), data),
    },
    event: {
      emits: ["report.created"],
      describe: ({ data }) => ({ type: "report.created", data: reportEventData(field(data, "id"), data) }),
    },
  },
  updateReport: {
    id: "updateReport",
    method: "PATCH",
    path: "/api/reports/{id}",
    summary: "Change a report's page privacy or password, or regenerate its results",
    tag: "Reports",
    permission: "reports:write",
    area: "reports",
    params: ReportIdParamsSchema,
    query: EmptyQuerySchema,
    body: ReportUpdateBodySchema,
    success: { status: 200, description: "The updated report", schema: dataEnvelope(ReportSchema) },
    notFound: "There is no report with id {id}.",
    audit: {
      // Regenerating a report's results is its own act, not a change of its settings.
      action: ({ body }) => (body.results === true ? "report.regenerate" : "report.update"),
      target: ({ params, data }) => reportTarget(params.id, data),
      detail: ({ body }) => ({
        changes: Object.keys(body),
        ...(typeof body.privacy === "number" ? { privacy: body.privacy } : {}),
      }),
    },
    event: {
      emits: ["report.updated", "report.regenerated"],
      describe: ({ params, body, data }) => ({
        type: body.results === true ? "report.regenerated" : "report.updated",
        data: { ...reportEventData(params.id, data), changes: Object.keys(body) },
      }),
    },
  },
  deleteReport: {
    id: "deleteReport",
    method: "DELETE",
    path: "/api/reports/{id}",
    summary: "Delete a report",
    tag: "Reports",
    permission: "reports:write",
    area: "reports",
    params: ReportIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 204, description: "Deleted" },
    notFound: "There is no report with id {id}.",
    audit: { action: "report.delete", target: ({ params }) => reportTarget(params.id) },
    event: {
      emits: ["report.deleted"],
      describe: ({ params }) => ({ type: "report.deleted", data: { report: { id: Number(text(params.id)) } } }),
    },
  },
  listProjects: {
    id: "listProjects",
    method: "GET",
    path: "/api/projects",
    summary: "List projects, sorted and paginated",
    tag: "Projects",
    permission: "reports:read",
    area: "reports",
    query: ProjectListQuerySchema,
    success: { status: 200, description: "One page of projects", schema: pageEnvelope(ProjectSchema) },
  },
  deleteProject: {
    id: "deleteProject",
    method: "DELETE",
    path: "/api/projects/{project}",
    summary: "Delete a project (by name) and its reports",
    tag: "Projects",
    permission: "projects:write",
    area: "reports",
    params: ProjectParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 204, description: "Deleted" },
    notFound: "There is no project named {project}.",
    audit: {
      action: "project.delete",
      target: ({ params }) => projectTarget(params.project),
    },
    event: {
      emits: ["project.deleted"],
      describe: ({ params }) => ({ type: "project.deleted", data: { project: text(params.project) } }),
    },
  },
  reportHistory: {
    id: "reportHistory",
    method: "GET",
    path: "/api/reports/{id}/history",
    summary: "A report's results as Gatehouse saw them, newest first, each with the change from the one before",
    tag: "Trends",
    permission: "reports:read",
    params: ReportIdParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "The report's history (empty when Gatehouse never saw it)",
      schema: dataEnvelope(ReportHistorySchema),
    },
  },
  revealReportPassword: {
    id: "revealReportPassword",
    method: "POST",
    path: "/api/reports/{id}/password",
    summary:
      "Reveal the page password Gatehouse set on a password-protected report (audited as report.password_reveal)",
    tag: "Reports",
    permission: "reports:write",
    params: ReportIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The password", schema: dataEnvelope(SharePasswordSchema) },
    errors: ["not_found"],
    audit: { action: "report.password_reveal", target: ({ params }) => reportTarget(params.id) },
  },
  resultTrend: {
    id: "resultTrend",
    method: "GET",
    path: "/api/trends",
    summary: "Results by day (good, decent, bad) for the last 30, 90 or 365 days, overall or for one project",
    tag: "Trends",
    permission: "reports:read",
    query: TrendQuerySchema,
    success: { status: 200, description: "Every day of the range, oldest first", schema: dataEnvelope(TrendSchema) },
  },
  projectMixes: {
    id: "projectMixes",
    method: "GET",
    path: "/api/trends/projects",
    summary: "Each project's reports by their newest result, as Gatehouse saw them",
    tag: "Trends",
    permission: "reports:read",
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "One row per project, most reports first",
      schema: dataEnvelope(ProjectMixSchema.array()),
    },
  },
  compareProject: {
    id: "compareProject",
    method: "GET",
    path: "/api/projects/{project}/compare",
    summary: "A project on two days side by side: which reports got better, which worse",
    tag: "Trends",
    permission: "reports:read",
    params: ProjectParamsSchema,
    query: CompareQuerySchema,
    success: {
      status: 200,
      description: "The reports that changed between the two days",
      schema: dataEnvelope(CompareSchema),
    },
  },
  projectSchedule: {
    id: "projectSchedule",
    method: "GET",
    path: "/api/projects/{project}/schedule",
    summary: "A project's scheduled regeneration (null when it has none) and its latest runs",
    tag: "Schedules",
    permission: "reports:read",
    params: ProjectParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The schedule and its runs", schema: dataEnvelope(ProjectScheduleSchema) },
  },
  setProjectSchedule: {
    id: "setProjectSchedule",
    method: "POST",
    path: "/api/projects/{project}/schedule",
    summary: "Set a project's scheduled regeneration: daily or weekly, at a time of day in an IANA time zone",
    tag: "Schedules",
    permission: "projects:write",
    params: ProjectParamsSchema,
    query: EmptyQuerySchema,
    body: ScheduleBodySchema,
    success: { status: 200, description: "The schedule with its next run", schema: dataEnvelope(ScheduleSchema) },
    audit: {
      action: "project.schedule_update",
      target: ({ params }) => projectTarget(params.project),
      detail: ({ body }) => ({
        enabled: body.enabled === true,
        frequency: text(body.frequency),
        time: text(body.time),
        time_zone: text(body.time_zone),
      }),
    },
  },
  deleteProjectSchedule: {
    id: "deleteProjectSchedule",
    method: "DELETE",
    path: "/api/projects/{project}/schedule",
    summary: "Remove a project's scheduled regeneration (its past runs stay)",
    tag: "Schedules",
    permission: "projects:write",
    params: ProjectParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 204, description: "Removed (also when there was none)" },
    audit: {
      action: "project.schedule_update",
      target: ({ params }) => projectTarget(params.project),
      detail: () => ({ removed: true }),
    },
  },
  runProjectSchedule: {
    id: "runProjectSchedule",
    method: "POST",
    path: "/api/projects/{project}/schedule/runs",
    summary: "Regenerate a project's reports now, in the background, within the schedule's share of the rate budget",
    tag: "Schedules",
    permission: "projects:write",
    area: "reports",
    params: ProjectParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 202,
      description: "The run, started; follow it with GET /api/projects/{project}/schedule",
      schema: dataEnvelope(RunSchema),
    },
    errors: ["run_in_progress"],
    audit: {
      action: "project.schedule_run",
      target: ({ params }) => projectTarget(params.project),
    },
  },
  projectAlertRule: {
    id: "projectAlertRule",
    method: "GET",
    path: "/api/projects/{project}/alert-rule",
    summary: "When a project's drops make an alert: any drop (the default), only a drop to bad, or never",
    tag: "Alerts",
    permission: "reports:read",
    params: ProjectParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The rule", schema: dataEnvelope(AlertRuleSchema) },
  },
  setProjectAlertRule: {
    id: "setProjectAlertRule",
    method: "POST",
    path: "/api/projects/{project}/alert-rule",
    summary: "Set when a project's drops make an alert",
    tag: "Alerts",
    permission: "projects:write",
    params: ProjectParamsSchema,
    query: EmptyQuerySchema,
    body: AlertRuleBodySchema,
    success: { status: 200, description: "The rule", schema: dataEnvelope(AlertRuleSchema) },
    audit: {
      action: "project.alert_rule_update",
      target: ({ params }) => projectTarget(params.project),
      detail: ({ body }) => ({ rule: text(body.rule) }),
    },
  },
  listAlerts: {
    id: "listAlerts",
    method: "GET",
    path: "/api/alerts",
    summary:
      "Regression alerts, newest first: unread (default), acknowledged or all, by project and by the result dropped to",
    tag: "Alerts",
    permission: "reports:read",
    query: AlertListQuerySchema,
    success: { status: 200, description: "One page of alerts", schema: pageEnvelope(AlertSchema) },
  },
  alertCount: {
    id: "alertCount",
    method: "GET",
    path: "/api/alerts/count",
    summary: "How many alerts are unread (the bell)",
    tag: "Alerts",
    permission: "reports:read",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The count", schema: dataEnvelope(AlertCountSchema) },
  },
  acknowledgeAlerts: {
    id: "acknowledgeAlerts",
    method: "POST",
    path: "/api/alerts/acknowledge",
    summary: "Acknowledge alerts by id, or every unread one",
    tag: "Alerts",
    permission: "reports:read",
    query: EmptyQuerySchema,
    body: AlertAckBodySchema,
    success: { status: 200, description: "How many were acknowledged now", schema: dataEnvelope(AlertAckSchema) },
    audit: {
      action: "alert.acknowledge",
      detail: ({ body, data }) => ({ all: body.all === true, count: Number(field(data, "acknowledged") ?? 0) }),
    },
  },
  showAccount: {
    id: "showAccount",
    method: "GET",
    path: "/api/account",
    summary: "The seller account that owns the item API key",
    tag: "Items",
    permission: "items:read",
    // The seller's money: not support's business, whose work is the buyer's purchase.
    guardedFields: { balance: "finances:read", currency: "finances:read" },
    area: "items",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The account", schema: dataEnvelope(AccountSchema) },
  },
  listItems: {
    id: "listItems",
    method: "GET",
    path: "/api/items",
    summary: "All items of the account (an empty list when it has none)",
    tag: "Items",
    permission: "items:read",
    area: "items",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The items", schema: dataEnvelope(ItemSchema.array()) },
  },
  showItem: {
    id: "showItem",
    method: "GET",
    path: "/api/items/{id}",
    summary: "Show one item of the account",
    tag: "Items",
    permission: "items:read",
    area: "items",
    params: ItemIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The item", schema: dataEnvelope(ItemSchema) },
    notFound: "There is no item with id {id} in this account.",
  },
  validatePurchase: {
    id: "validatePurchase",
    method: "POST",
    path: "/api/purchases/validate",
    summary:
      "Check a purchase code; a code that is not valid is a normal answer (valid: false), not an error. A code with look-alike or control characters is refused (400) with the reason in fields.purchase_code. Every check is kept in the history",
    tag: "Purchases",
    permission: "purchases:validate",
    area: "items",
    query: EmptyQuerySchema,
    body: PurchaseValidateBodySchema,
    success: {
      status: 200,
      description:
        "Whether the code is valid, with the purchase when it is, the code as checked, and what the history knew of it",
      schema: dataEnvelope(PurchaseCheckSchema),
    },
    errors: ["rate_limited"],
    rateLimit: "purchase",
    audit: {
      action: "purchase.validate",
      outcome: ({ data }, error) =>
        error === "forbidden" || error === "rate_limited"
          ? "denied"
          : error !== null
            ? "failed"
            : field(data, "valid") === true
              ? "valid"
              : "invalid",
      target: ({ data, body }) => {
        const checked = field(data, "checked_code");
        const code = typeof checked === "string" ? checked : body.purchase_code;
        return typeof code === "string" ? { type: "purchase_code", code } : null;
      },
      detail: ({ data }): Record<string, boolean> => {
        const valid = field(data, "valid");
        return typeof valid === "boolean" ? { valid } : {};
      },
    },
    event: {
      emits: ["purchase.checked"],
      describe: ({ data }, code) => {
        const checked = field(data, "checked_code");
        if (typeof checked !== "string") return null;
        const purchase = field(data, "purchase");
        const item = field(purchase, "item");
        const supportedUntil = field(purchase, "supported_until");
        const { hash, last4 } = code(checked);
        return {
          type: "purchase.checked",
          data: {
            outcome: field(data, "valid") === true ? "valid" : "invalid",
            code_hash: hash,
            code_last4: last4,
            item: item === undefined ? null : { id: field(item, "id") ?? null, name: field(item, "name") ?? null },
            license_type: field(purchase, "license_type") ?? null,
            support:
              purchase === undefined
                ? null
                : typeof supportedUntil !== "string"
                  ? "none"
                  : Date.parse(supportedUntil) > Date.now()
                    ? "active"
                    : "expired",
            supported_until: typeof supportedUntil === "string" ? supportedUntil : null,
          },
        };
      },
    },
  },
  listPurchaseHistory: {
    id: "listPurchaseHistory",
    method: "GET",
    path: "/api/purchases/history",
    summary:
      "Every purchase check (single and bulk), newest first, filtered and paginated. A full code is never accepted in the URL: search it with POST /api/purchases/history/search",
    tag: "Purchases",
    permission: "purchases:validate",
    query: PurchaseHistoryQuerySchema,
    success: { status: 200, description: "One page of checks", schema: pageEnvelope(PurchaseHistoryEntrySchema) },
  },
  exportPurchaseHistory: {
    id: "exportPurchaseHistory",
    method: "GET",
    path: "/api/purchases/history.csv",
    summary:
      "The checks the same filters select, as CSV, newest first: every page (the list's page and per_page may be sent and are ignored)",
    tag: "Purchases",
    permission: "purchases:validate",
    query: PurchaseHistoryExportQuerySchema,
    ignoredQuery: PURCHASE_HISTORY_PAGING,
    success: { status: 200, description: "CSV with a header row", contentType: "text/csv" },
  },
  searchPurchaseHistory: {
    id: "searchPurchaseHistory",
    method: "POST",
    path: "/api/purchases/history/search",
    summary:
      "The checks of one full purchase code (found through its keyed hash), with the same filters and pages as the list. The code travels in the body, never in a URL that proxies and browsers keep",
    tag: "Purchases",
    permission: "purchases:validate",
    query: EmptyQuerySchema,
    body: PurchaseHistorySearchBodySchema,
    success: { status: 200, description: "One page of checks", schema: pageEnvelope(PurchaseHistoryEntrySchema) },
  },
  exportPurchaseHistorySearch: {
    id: "exportPurchaseHistorySearch",
    method: "POST",
    path: "/api/purchases/history/search.csv",
    summary:
      "The checks of one full purchase code as CSV, with the same filters (page and per_page ignored), newest first",
    tag: "Purchases",
    permission: "purchases:validate",
    query: EmptyQuerySchema,
    body: PurchaseHistorySearchBodySchema,
    success: { status: 200, description: "CSV with a header row", contentType: "text/csv" },
  },
  createBulkJob: {
    id: "createBulkJob",
    method: "POST",
    path: "/api/purchases/bulk",
    summary:
      "Start checking up to 500 codes on the server (at most 3 upstream calls at once; the item service's 429s are waited out). Every distinct code, refused ones too, counts against the hourly bulk allowance (PURCHASE_BULK_LIMIT_PER_HOUR), and a user may start at most 200 jobs in 24 hours; a batch over either is refused (429) with the time it could run",
    tag: "Purchases",
    permission: "purchases:validate",
    area: "items",
    query: EmptyQuerySchema,
    body: BulkCreateBodySchema,
    maxBodyBytes: 1024 * 1024,
    success: {
      status: 202,
      description: "The job, accepted; follow it with GET /api/purchases/bulk/{id}",
      schema: dataEnvelope(BulkJobSummarySchema),
    },
    errors: ["rate_limited"],
    audit: {
      action: "purchase.bulk_create",
      detail: ({ data }) => ({ job_id: text(field(data, "id")), total: Number(field(data, "total") ?? 0) }),
    },
  },
  listBulkJobs: {
    id: "listBulkJobs",
    method: "GET",
    path: "/api/purchases/bulk",
    summary: "Bulk jobs of the last 7 days, newest first: your own, or everyone's for an admin",
    tag: "Purchases",
    permission: "purchases:validate",
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "The jobs, without their results",
      schema: dataEnvelope(BulkJobSummarySchema.array()),
    },
  },
  getBulkJob: {
    id: "getBulkJob",
    method: "GET",
    path: "/api/purchases/bulk/{id}",
    summary: "A bulk job's progress and results. Your own jobs, or any for an admin",
    tag: "Purchases",
    permission: "purchases:validate",
    params: BulkJobIdParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "The job with every code's result so far",
      schema: dataEnvelope(BulkJobSchema),
    },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
  },
  listBulkJobResults: {
    id: "listBulkJobResults",
    method: "GET",
    path: "/api/purchases/bulk/{id}/results",
    summary:
      "One page of a bulk job's results (50 by default), filtered by status (or support_expired, retryable) and searched (q: part of a code in any case, an item, a licence or a reason) on the server, with the job's summary and how many rows each filter holds",
    tag: "Purchases",
    permission: "purchases:validate",
    params: BulkJobIdParamsSchema,
    query: BulkResultsQuerySchema,
    success: {
      status: 200,
      description: "One page of results, the job, and the count under each filter",
      schema: BulkResultsPageSchema,
    },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
  },
  recheckBulkJob: {
    id: "recheckBulkJob",
    method: "POST",
    path: "/api/purchases/bulk/{id}/recheck",
    summary:
      "Check a finished job's failed rows again — only those that failed for a reason that can pass on a retry (network, timeout, 429, 5xx), never invalid ones. They count against the hourly bulk allowance; the job runs again and its counts follow. 409 while the job runs or when no row can be re-checked",
    tag: "Purchases",
    permission: "purchases:validate",
    area: "items",
    params: BulkJobIdParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 202,
      description: "The job, queued again, with how many rows were sent back",
      schema: dataEnvelope(BulkRecheckSchema),
    },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
    errors: ["conflict", "rate_limited"],
    audit: {
      action: "purchase.bulk_recheck",
      detail: ({ params, data }) => ({ job_id: text(params.id), rechecked: Number(field(data, "rechecked") ?? 0) }),
    },
  },
  exportBulkJob: {
    id: "exportBulkJob",
    method: "GET",
    path: "/api/purchases/bulk/{id}.csv",
    summary: "A bulk job's results as CSV, in batch order (also while it runs: pending codes say so)",
    tag: "Purchases",
    permission: "purchases:validate",
    params: BulkJobCsvParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "CSV with a header row", contentType: "text/csv" },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
  },
  cancelBulkJob: {
    id: "cancelBulkJob",
    method: "DELETE",
    path: "/api/purchases/bulk/{id}",
    summary:
      "Cancel a bulk job: checks in flight finish, the codes not yet checked end as cancelled. A finished job is answered as it is",
    tag: "Purchases",
    permission: "purchases:validate",
    params: BulkJobIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The job after the cancel", schema: dataEnvelope(BulkJobSummarySchema) },
    notFound: "There is no bulk job {id} (jobs are kept 7 days).",
    audit: {
      action: "purchase.bulk_cancel",
      detail: ({ params }) => ({ job_id: text(params.id) }),
    },
  },
  health: {
    id: "health",
    method: "GET",
    path: "/api/health",
    summary: "Liveness: answers without calling any upstream",
    tag: "Operations",
    permission: "public",
    success: { status: 200, description: "Gatehouse is running", schema: HealthSchema },
  },
  ready: {
    id: "ready",
    method: "GET",
    path: "/api/ready",
    summary:
      "Readiness: 200 when every configured area answered the last check (made at most every 5 s, whoever asks) and accepts its key, else 503 (same body). Which area and why only for an admin's session or Authorization: Bearer <METRICS_TOKEN>",
    tag: "Operations",
    permission: "public",
    optionalSession: true,
    success: { status: 200, description: "Ready (503 with the same body when not)", schema: ReadinessSchema },
  },
  login: {
    id: "login",
    method: "POST",
    path: "/api/auth/login",
    summary: "Sign in: sets the session cookie",
    tag: "Accounts",
    permission: "public",
    query: EmptyQuerySchema,
    body: LoginBodySchema,
    form: { page: "/login" },
    success: {
      status: 200,
      description: "Signed in; the session cookie is set",
      schema: dataEnvelope(CurrentSessionSchema),
    },
    errors: ["invalid_credentials", "password_login_off", "rate_limited", "server_busy"],
  },
  ssoStart: {
    id: "ssoStart",
    method: "GET",
    path: "/api/auth/oidc/start",
    summary:
      "Sign in with the identity provider (OpenID Connect): 302 to its sign-in page, with state, nonce and the PKCE verifier kept in a sealed cookie for 10 minutes; when its discovery document cannot be had (none fetched yet in this process, which keeps it an hour), 303 to /login?error=sso_unavailable",
    tag: "Accounts",
    permission: "public",
    query: SsoStartQuerySchema,
    success: { status: 302, description: "To the provider's sign-in page (or 303 to /login?error=<code>)" },
  },
  ssoCallback: {
    id: "ssoCallback",
    method: "GET",
    path: "/api/auth/oidc/callback",
    summary:
      "Where the provider sends the browser back (its query: code, state, iss, or error). A GET without X-CSRF: the state and the PKCE verifier, bound to the browser's transaction cookie and checked by the client library with the ID token, prove this browser started the sign-in. 303 to the page asked for with the session cookie, or to /login?error=<code>",
    tag: "Accounts",
    permission: "public",
    optionalSession: true,
    success: {
      status: 303,
      description: "To the page asked for with the session cookie, or to /login?error=<code> (one sentence there)",
    },
  },
  logout: {
    id: "logout",
    method: "POST",
    path: "/api/auth/logout",
    summary:
      "Sign out: ends every session of the signed-in user and clears the cookie (204 even without a session). After a single sign-on, when the provider offers RP-initiated logout: 200 {data:{end_session_url}}, where the browser goes next to end the provider's session too",
    tag: "Accounts",
    permission: "public",
    optionalSession: true,
    query: EmptyQuerySchema,
    success: { status: 204, description: "Signed out" },
  },
  me: {
    id: "me",
    method: "GET",
    path: "/api/auth/me",
    summary: "The signed-in user, his permissions and when the session ends",
    tag: "Accounts",
    permission: "signed_in",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The current session", schema: dataEnvelope(CurrentSessionSchema) },
  },
  listUsers: {
    id: "listUsers",
    method: "GET",
    path: "/api/admin/users",
    summary: "Every portal user, by email",
    tag: "Admin",
    permission: "users:manage",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The users", schema: dataEnvelope(UserSchema.array()) },
  },
  createUser: {
    id: "createUser",
    method: "POST",
    path: "/api/admin/users",
    summary: "Create a user",
    tag: "Admin",
    permission: "users:manage",
    query: EmptyQuerySchema,
    body: UserCreateBodySchema,
    success: { status: 201, description: "The new user", schema: dataEnvelope(UserSchema) },
    errors: ["email_taken"],
    audit: {
      action: "user.create",
      target: ({ data }) => userTarget(field(data, "id"), data),
      detail: ({ body }) => ({ email: text(body.email), role: text(body.role) }),
    },
  },
  updateUser: {
    id: "updateUser",
    method: "PATCH",
    path: "/api/admin/users/{id}",
    summary:
      "Change a user's name, role, password or disabled flag; a role or password change, or disabling, ends his sessions, and a new password or disabling also revokes his API tokens unless revoke_tokens is false",
    tag: "Admin",
    permission: "users:manage",
    params: UserIdParamsSchema,
    query: EmptyQuerySchema,
    body: UserUpdateBodySchema,
    success: { status: 200, description: "The updated user", schema: dataEnvelope(UserSchema) },
    notFound: "There is no user with id {id}.",
    errors: ["last_admin"],
    audit: {
      action: "user.update",
      target: ({ params, data }) => userTarget(params.id, data),
      detail: ({ body, data }) => {
        // A role set by hand on a single sign-on user is pinned without being asked (lib/auth/users.ts updateUser).
        const pinnedByRole =
          body.role_pinned === undefined &&
          typeof body.role === "string" &&
          field(data, "identity") &&
          field(data, "role_pinned") === true;
        return {
          changes: [...Object.keys(body), ...(pinnedByRole ? ["role_pinned"] : [])],
          ...(typeof body.role === "string" ? { role: body.role } : {}),
          ...(typeof body.disabled === "boolean" ? { disabled: body.disabled } : {}),
          ...(typeof body.role_pinned === "boolean"
            ? { role_pinned: body.role_pinned }
            : pinnedByRole
              ? { role_pinned: true }
              : {}),
        };
      },
    },
  },
  unlockUser: {
    id: "unlockUser",
    method: "POST",
    path: "/api/admin/users/{id}/unlock",
    summary:
      "Clear a user's failed sign-ins, from every address: nothing then slows or refuses his next sign-in (a password reset does it too)",
    tag: "Admin",
    permission: "users:manage",
    params: UserIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The user", schema: dataEnvelope(UserSchema) },
    notFound: "There is no user with id {id}.",
    audit: {
      action: "user.unlock",
      target: ({ params, data }) => userTarget(params.id, data),
    },
  },
  listTokens: {
    id: "listTokens",
    method: "GET",
    path: "/api/tokens",
    summary: "Your API tokens (an admin also sees every service account's), newest first; never their secrets",
    tag: "Tokens",
    permission: "signed_in",
    sessionOnly: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The tokens", schema: dataEnvelope(TokenSchema.array()) },
  },
  createToken: {
    id: "createToken",
    method: "POST",
    path: "/api/tokens",
    summary: `Make an API token: a name, scopes your role allows, a lifetime (expires_in_days, expires_at, or never_expires for a service account's), and optionally the client ranges it may be used from. The answer carries its secret, this once. A session that began more than ${RECENT_SIGN_IN_MINUTES} minutes ago must send the password too (single sign-on: sign in again); an owner may have at most ${MAX_ACTIVE_TOKENS_PER_OWNER} active tokens`,
    tag: "Tokens",
    permission: "signed_in",
    sessionOnly: true,
    query: EmptyQuerySchema,
    body: TokenCreateBodySchema,
    success: {
      status: 201,
      description: "The token with its secret (shown once)",
      schema: dataEnvelope(CreatedTokenSchema),
    },
    errors: ["reauthentication_required", "too_many_tokens", "server_busy"],
    audit: {
      action: "token.create",
      target: ({ data }) => tokenTarget(field(data, "id"), data),
      detail: ({ data }) => ({
        scopes: ((field(data, "scopes") as string[] | undefined) ?? []).map(String),
        expires_at: text(field(data, "expires_at")),
        owner: text(field(field(data, "user"), "email")),
      }),
    },
  },
  revokeToken: {
    id: "revokeToken",
    method: "DELETE",
    path: "/api/tokens/{id}",
    summary:
      "Revoke an API token (yours, or for an admin anyone's): the next request with it is refused (401 token_revoked). Revoking a revoked token answers it as it is",
    tag: "Tokens",
    permission: "signed_in",
    sessionOnly: true,
    params: TokenIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The token, revoked", schema: dataEnvelope(TokenSchema) },
    notFound: "There is no token with id {id}.",
    audit: { action: "token.revoke", target: ({ params, data }) => tokenTarget(params.id, data) },
  },
  listEveryToken: {
    id: "listEveryToken",
    method: "GET",
    path: "/api/admin/tokens",
    summary:
      "Every person's API tokens (or one person's: user_id), newest first; never their secrets. Revoke one with DELETE /api/tokens/{id}",
    tag: "Admin",
    permission: "users:manage",
    sessionOnly: true,
    query: TokenListQuerySchema,
    success: { status: 200, description: "The tokens", schema: dataEnvelope(TokenSchema.array()) },
  },
  listWebhooks: {
    id: "listWebhooks",
    method: "GET",
    path: "/api/admin/webhooks",
    summary: "Every webhook endpoint, oldest first; never a secret",
    tag: "Admin",
    permission: "webhooks:manage",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The endpoints", schema: dataEnvelope(WebhookSchema.array()) },
  },
  createWebhook: {
    id: "createWebhook",
    method: "POST",
    path: "/api/admin/webhooks",
    summary:
      "Add an endpoint: an https URL whose every address is public (checked now and at each delivery) and the events it wants. The answer carries its signing secret (whsec_…), this once",
    tag: "Admin",
    permission: "webhooks:manage",
    query: EmptyQuerySchema,
    body: WebhookCreateBodySchema,
    success: {
      status: 201,
      description: "The endpoint with its secret (shown once)",
      schema: dataEnvelope(WebhookWithSecretSchema),
    },
    audit: {
      action: "webhook.create",
      target: ({ data }) => webhookTarget(field(data, "id"), data),
      detail: ({ body }) => ({ events: ((body.events as string[] | undefined) ?? []).map(String) }),
    },
  },
  updateWebhook: {
    id: "updateWebhook",
    method: "PATCH",
    path: "/api/admin/webhooks/{id}",
    summary:
      "Change an endpoint's URL, events or description; pause it (enabled: false) or start it again (enabled: true, also after a disable for failing); or rotate its secret (rotate_secret: true: the new one is answered once, and the old one signs too for 24 hours)",
    tag: "Admin",
    permission: "webhooks:manage",
    params: WebhookIdParamsSchema,
    query: EmptyQuerySchema,
    body: WebhookUpdateBodySchema,
    success: {
      status: 200,
      description: "The endpoint (with `secret` when it was rotated)",
      schema: dataEnvelope(WebhookSchema.extend({ secret: WebhookWithSecretSchema.shape.secret.optional() })),
    },
    notFound: "There is no webhook endpoint with id {id}.",
    audit: {
      action: "webhook.update",
      target: ({ params, data }) => webhookTarget(params.id, data),
      detail: ({ body }) => ({ changes: Object.keys(body) }),
    },
  },
  deleteWebhook: {
    id: "deleteWebhook",
    method: "DELETE",
    path: "/api/admin/webhooks/{id}",
    summary: "Remove an endpoint, with its deliveries and their log",
    tag: "Admin",
    permission: "webhooks:manage",
    params: WebhookIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 204, description: "Removed" },
    notFound: "There is no webhook endpoint with id {id}.",
    audit: { action: "webhook.delete", target: ({ params }) => webhookTarget(params.id) },
  },
  listWebhookDeliveries: {
    id: "listWebhookDeliveries",
    method: "GET",
    path: "/api/admin/webhooks/{id}/deliveries",
    summary:
      "The endpoint's delivery log: its latest 50 deliveries, newest first, each with every attempt (status, time, the answer's first characters)",
    tag: "Admin",
    permission: "webhooks:manage",
    params: WebhookIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The deliveries", schema: dataEnvelope(WebhookDeliverySchema.array()) },
    notFound: "There is no webhook endpoint with id {id}.",
  },
  redeliverWebhook: {
    id: "redeliverWebhook",
    method: "POST",
    path: "/api/admin/webhooks/{id}/deliveries/{delivery}/resend",
    summary: "Send a delivery again now: the same webhook-id and body, a new attempt in its log",
    tag: "Admin",
    permission: "webhooks:manage",
    params: WebhookDeliveryParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 202,
      description: "Queued: it is sent within moments",
      schema: dataEnvelope(WebhookDeliverySchema),
    },
    notFound: "There is no delivery {delivery} for webhook endpoint {id}.",
    audit: {
      action: "webhook.redeliver",
      target: ({ params }) => webhookTarget(params.id),
      detail: ({ params }) => ({ delivery: text(params.delivery) }),
    },
  },
  listAudit: {
    id: "listAudit",
    method: "GET",
    path: "/api/admin/audit",
    summary: "The audit log, newest first, filtered and paginated",
    tag: "Admin",
    permission: "audit:read",
    query: AuditListQuerySchema,
    success: { status: 200, description: "One page of audit rows", schema: pageEnvelope(AuditRecordSchema) },
  },
  listUpstreamKeys: {
    id: "listUpstreamKeys",
    method: "GET",
    path: "/api/admin/upstream-keys",
    summary:
      "Each area's upstream connection: where its key is kept (environment or portal), the key's fingerprint and last 4 characters (never the key), the stored keys, and its health",
    tag: "Admin",
    permission: "upstream:manage",
    query: EmptyQuerySchema,
    success: { status: 200, description: "Both areas", schema: dataEnvelope(UpstreamAreaStatusSchema.array()) },
  },
  testUpstreamKey: {
    id: "testUpstreamKey",
    method: "POST",
    path: "/api/admin/upstream-keys/{area}/test",
    summary:
      "Test a key against the upstream (one read) without saving it; a key the upstream refuses is a 400 with its words in fields.key",
    tag: "Admin",
    permission: "upstream:manage",
    params: UpstreamAreaParamsSchema,
    query: EmptyQuerySchema,
    body: UpstreamKeyBodySchema,
    success: { status: 200, description: "The upstream accepted the key", schema: dataEnvelope(KeyTestResultSchema) },
    notFound: "The area is not configured on this Gatehouse.",
  },
  setUpstreamKey: {
    id: "setUpstreamKey",
    method: "POST",
    path: "/api/admin/upstream-keys/{area}",
    summary:
      "Rotate the area's key: tested against the upstream first, saved sealed only if it works; every instance switches within a few seconds, and the old key is kept, disabled, until removed",
    tag: "Admin",
    permission: "upstream:manage",
    params: UpstreamAreaParamsSchema,
    query: EmptyQuerySchema,
    body: UpstreamKeyBodySchema,
    success: {
      status: 201,
      description: "The change and the area's new state",
      schema: dataEnvelope(KeyChangeResultSchema),
    },
    notFound: "The area is not configured on this Gatehouse.",
    errors: ["key_set_in_environment", "key_encryption_off"],
    audit: {
      action: "upstream.key_set",
      target: ({ params }) => upstreamAreaTarget(params.area),
      detail: ({ data }) => changeDetail(data),
    },
  },
  restoreUpstreamKey: {
    id: "restoreUpstreamKey",
    method: "POST",
    path: "/api/admin/upstream-keys/{area}/{id}/restore",
    summary: "Undo a rotation: make a stored, disabled key the area's key again (tested against the upstream first)",
    tag: "Admin",
    permission: "upstream:manage",
    params: UpstreamKeyParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "The change and the area's new state",
      schema: dataEnvelope(KeyChangeResultSchema),
    },
    notFound: "There is no such stored key for the area.",
    errors: ["key_set_in_environment", "key_encryption_off"],
    audit: {
      action: "upstream.key_restored",
      target: ({ params }) => upstreamAreaTarget(params.area),
      detail: ({ data }) => changeDetail(data),
    },
  },
  removeUpstreamKey: {
    id: "removeUpstreamKey",
    method: "DELETE",
    path: "/api/admin/upstream-keys/{area}/{id}",
    summary: "Remove a stored key that is not in use (the key in use is refused: 409 key_in_use)",
    tag: "Admin",
    permission: "upstream:manage",
    params: UpstreamKeyParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "The change and the area's new state",
      schema: dataEnvelope(KeyChangeResultSchema),
    },
    notFound: "There is no such stored key for the area.",
    errors: ["key_in_use"],
    audit: {
      action: "upstream.key_removed",
      target: ({ params }) => upstreamAreaTarget(params.area),
      detail: ({ data }) => changeDetail(data),
    },
  },
  openapi: {
    id: "openapi",
    method: "GET",
    path: "/api/openapi.json",
    summary: "This API's OpenAPI 3.1 description, generated from the schemas that validate it",
    tag: "Operations",
    permission: "public",
    success: { status: 200, description: "An OpenAPI 3.1 document" },
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof operations;
