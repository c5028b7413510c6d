// Area A's projects: list them, or delete one with its reports. What a project also has (its trend, schedule
// and alert rule) is in trends.ts, schedules.ts and alerts.ts, by the group the API document puts it in.
import { EmptyQuerySchema, pageEnvelope } from "@/lib/contract/common";
import { ProjectListQuerySchema, ProjectParamsSchema, ProjectSchema } from "@/lib/contract/projects";

import { projectTarget, text } from "./targets";
import type { OperationSpec } from "./types";

export const projectOperations = {
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
} as const satisfies Record<string, OperationSpec>;
