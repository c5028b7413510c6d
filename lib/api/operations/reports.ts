// Area A's web-page reports: list, show, create, change or regenerate, delete, and reveal the page password
// Gatehouse set. The report events are declared here, beside the audit rows read from the same facts.
import { dataEnvelope, EmptyQuerySchema, pageEnvelope } from "@/lib/contract/common";
import { SharePasswordSchema } from "@/lib/contract/history";
import {
  ReportCreateBodySchema,
  ReportIdParamsSchema,
  ReportListQuerySchema,
  ReportSchema,
  ReportUpdateBodySchema,
} from "@/lib/contract/reports";

import { field, reportTarget, text } from "./targets";
import type { OperationSpec } from "./types";

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

export const reportOperations = {
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
} as const satisfies Record<string, OperationSpec>;
