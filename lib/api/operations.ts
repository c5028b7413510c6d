// Every operation of the portal API in one table: method, path, permission, upstream area, input schemas and
// the success answer. Route handlers are built from these entries (lib/api/route.ts) and /api/openapi.json is
// generated from them (lib/api/openapi.ts), so the contract lives here once.
import type { z } from "zod";

import type { Permission as AccountPermission } from "@/lib/auth/permissions";
import type { Area } from "@/lib/config/areas";

import type { ErrorCode } from "./errors";
import {
  AccountSchema,
  dataEnvelope,
  EmptyQuerySchema,
  HealthSchema,
  ItemIdParamsSchema,
  ItemSchema,
  pageEnvelope,
  ProjectListQuerySchema,
  ProjectParamsSchema,
  ProjectSchema,
  PurchaseValidateBodySchema,
  PurchaseValidationSchema,
  ReadinessSchema,
  ReportCreateBodySchema,
  ReportIdParamsSchema,
  ReportListQuerySchema,
  ReportSchema,
  ReportUpdateBodySchema,
} from "./schemas";

/**
 * What a caller must be allowed to do: a permission of the accounts table (lib/auth/permissions.ts), or "public"
 * for operations that never need a session. Declared on every operation; enforced in `authorize`
 * (lib/api/route.ts).
 */
export type Permission = AccountPermission | "public";

export interface OperationSpec {
  /** The OpenAPI operationId. */
  id: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** OpenAPI-style path, e.g. "/api/reports/{id}". */
  path: string;
  summary: string;
  tag: string;
  permission: Permission;
  /** The upstream area the operation needs; without it configured the route answers 503 area_not_configured. */
  area?: Area;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  success: { status: 200 | 201 | 204; description: string; schema?: z.ZodType };
  /** The message of a 404 when the upstream says the resource does not exist; `{name}` takes the path parameter. */
  notFound?: string;
  /** Error codes this operation can answer beyond the ones every upstream operation can. */
  errors?: ErrorCode[];
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
  },
  showAccount: {
    id: "showAccount",
    method: "GET",
    path: "/api/account",
    summary: "The seller account that owns the item API key",
    tag: "Items",
    permission: "items:read",
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
    summary: "Check a purchase code; a code that is not valid is a normal answer (valid: false), not an error",
    tag: "Items",
    permission: "purchases:validate",
    area: "items",
    query: EmptyQuerySchema,
    body: PurchaseValidateBodySchema,
    success: { status: 200, description: "Whether the code is valid, with the purchase when it is", schema: dataEnvelope(PurchaseValidationSchema) },
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
    summary: "Readiness: 200 when every configured area answers and accepts its key, else 503 (same body)",
    tag: "Operations",
    permission: "public",
    success: { status: 200, description: "Ready (503 with the same body when not)", schema: ReadinessSchema },
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
