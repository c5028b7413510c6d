// A project's scheduled regeneration: read, set or remove it, and run it now. Changing or running it is audited
// against the project.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import { ProjectScheduleSchema, RunSchema, ScheduleBodySchema, ScheduleSchema } from "@/lib/contract/history";
import { ProjectParamsSchema } from "@/lib/contract/projects";

import { projectTarget, text } from "./targets";
import type { OperationSpec } from "./types";

export const scheduleOperations = {
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
} as const satisfies Record<string, OperationSpec>;
