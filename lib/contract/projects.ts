// Area A's projects as the portal API shows and accepts them. Written in zod/mini: the projects page reads its
// URL with PROJECT_LIST_FIELDS in the browser, so this file's zod is the small one (lib/contract/fields.ts).
import * as z from "zod/mini";

import { choice, isoTimestamp, page, perPage, searchText, sortDirection } from "./fields";
import { DEFAULT_PER_PAGE, DEFAULT_SORT, PROJECT_SORT_FIELDS } from "./values";

export const ProjectSchema = z.object({
  project: z.string().check(z.describe("The project name (its identifier in /api/projects/{project})")),
  created_at: z.nullable(isoTimestamp),
});
export type Project = z.infer<typeof ProjectSchema>;

/** GET /api/projects's query, field by field (the projects page reads its URL with them). */
export const PROJECT_LIST_FIELDS = {
  search: z.optional(searchText).check(z.describe("Search text, matched against search_by")),
  search_by: z.optional(choice(["project"])).check(z.meta({ description: "Field to search", default: "project" })),
  sort_by: z
    .optional(choice(PROJECT_SORT_FIELDS))
    .check(z.meta({ description: "Sort field", default: DEFAULT_SORT.projects.sort_by })),
  sort: z.optional(sortDirection(DEFAULT_SORT.projects.sort)),
  per_page: z.optional(perPage(DEFAULT_PER_PAGE.projects)),
  page: z.optional(page),
};

export const ProjectListQuerySchema = z.strictObject(PROJECT_LIST_FIELDS);
export type ProjectListQuery = z.output<typeof ProjectListQuerySchema>;

export const ProjectParamsSchema = z.object({
  project: z
    .string()
    .check(
      z.minLength(1, "must not be empty"),
      z.maxLength(255, "must be at most 255 characters"),
      z.describe("Project name, URL-encoded in the path (spaces and non-ASCII letters are fine)"),
    ),
});
