// Area A's projects as the portal API shows and accepts them.
import { z } from "zod";

import { isoTimestamp, oneOf, page, perPage, searchText, sortDirection } from "./common";
import { DEFAULT_PER_PAGE, DEFAULT_SORT, PROJECT_SORT_FIELDS } from "./values";

export const ProjectSchema = z.object({
  project: z.string().describe("The project name (its identifier in /api/projects/{project})"),
  created_at: isoTimestamp.nullable(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectListQuerySchema = z.strictObject({
  search: searchText.optional().describe("Search text, matched against search_by"),
  search_by: z
    .enum(["project"], { error: oneOf(["project"]) })
    .optional()
    .meta({ description: "Field to search", default: "project" }),
  sort_by: z
    .enum(PROJECT_SORT_FIELDS, { error: oneOf(PROJECT_SORT_FIELDS) })
    .optional()
    .meta({ description: "Sort field", default: DEFAULT_SORT.projects.sort_by }),
  sort: sortDirection(DEFAULT_SORT.projects.sort).optional(),
  per_page: perPage(DEFAULT_PER_PAGE.projects).optional(),
  page: page.optional(),
});
export type ProjectListQuery = z.output<typeof ProjectListQuerySchema>;

export const ProjectParamsSchema = z.object({
  project: z
    .string()
    .min(1, "must not be empty")
    .max(255, "must be at most 255 characters")
    .describe("Project name, URL-encoded in the path (spaces and non-ASCII letters are fine)"),
});
