// Reports over time: a report's history, results by day, each project's mix, and a project on two days compared.
// No upstream area: they read what Gatehouse kept of the results it saw.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import {
  CompareQuerySchema,
  CompareSchema,
  ProjectMixSchema,
  ReportHistorySchema,
  TrendQuerySchema,
  TrendSchema,
} from "@/lib/contract/history";
import { ProjectParamsSchema } from "@/lib/contract/projects";
import { ReportIdParamsSchema } from "@/lib/contract/reports";

import type { OperationSpec } from "./types";

export const trendOperations = {
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
} as const satisfies Record<string, OperationSpec>;
