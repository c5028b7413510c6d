// Area A's reports as the portal API shows and accepts them.
import { z } from "zod";

import { isoTimestamp, oneOf, page, perPage, positiveIdParam, searchText, sortDirection } from "./common";
import { DEFAULT_PER_PAGE, DEFAULT_SORT, REPORT_RESULTS, REPORT_SORT_FIELDS } from "./values";

export const ReportSchema = z
  .object({
    id: z.number().int().positive(),
    url: z.string(),
    project: z.string().nullable().describe("Project name; null when the report belongs to none"),
    result: z.enum(REPORT_RESULTS),
    generated_at: isoTimestamp.nullable().describe("When the report was generated (ISO 8601 UTC); null if not yet"),
    privacy: z.union([z.literal(0), z.literal(1), z.literal(2)]).describe("0 Public, 1 Private, 2 Password"),
  })
  .describe("A web-page report. Its password is never returned.");
export type Report = z.infer<typeof ReportSchema>;

export const ReportListQuerySchema = z.strictObject({
  search: searchText.optional().describe("Search text, matched against search_by"),
  search_by: z
    .enum(["url"], { error: oneOf(["url"]) })
    .optional()
    .meta({ description: "Field to search", default: "url" }),
  project: searchText.optional().describe("Only reports of this project"),
  result: z
    .enum(REPORT_RESULTS, { error: oneOf(REPORT_RESULTS) })
    .optional()
    .describe("Only reports with this result"),
  sort_by: z
    .enum(REPORT_SORT_FIELDS, { error: oneOf(REPORT_SORT_FIELDS) })
    .optional()
    .meta({ description: "Sort field (id: the order reports were created in)", default: DEFAULT_SORT.reports.sort_by }),
  sort: sortDirection(DEFAULT_SORT.reports.sort).optional(),
  per_page: perPage(DEFAULT_PER_PAGE.reports).optional(),
  page: page.optional(),
});
export type ReportListQuery = z.output<typeof ReportListQuerySchema>;

export const ReportIdParamsSchema = z.object({ id: positiveIdParam.describe("Report id") });

const privacy = z
  .union([z.literal(0), z.literal(1), z.literal(2)], { error: "must be 0 (Public), 1 (Private) or 2 (Password)" })
  .describe("0 Public, 1 Private, 2 Password");
const password = z
  .string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters")
  .describe("Password of the report page; only with privacy 2. Never returned.");

const PASSWORD_NEEDS_PRIVACY_2 = "only applies when privacy is 2 (Password); send privacy 2 or leave password out";

export const ReportCreateBodySchema = z
  .strictObject({
    url: z
      .string({
        error: (issue) => (issue.input === undefined ? "is required: the web page's URL" : "must be a string"),
      })
      .max(2048, "must be at most 2048 characters")
      .refine(
        (value) => /^https?:\/\//i.test(value) && URL.canParse(value),
        "must be an absolute http:// or https:// URL",
      )
      .describe("The web page's URL (http or https)"),
    privacy: privacy.optional(),
    password: password.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.privacy === 2 && body.password === undefined) {
      ctx.addIssue({ code: "custom", path: ["password"], message: "is required when privacy is 2 (Password)" });
    }
    if (body.password !== undefined && body.privacy !== 2) {
      ctx.addIssue({ code: "custom", path: ["password"], message: PASSWORD_NEEDS_PRIVACY_2 });
    }
  });
export type ReportCreateInput = z.output<typeof ReportCreateBodySchema>;

export const ReportUpdateBodySchema = z
  .strictObject({
    privacy: privacy.optional(),
    password: password.optional(),
    results: z
      .literal(true, { error: "can only be true (regenerate the report's results); leave it out otherwise" })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.privacy === undefined && body.password === undefined && body.results === undefined) {
      ctx.addIssue({ code: "custom", path: [], message: "Nothing to update: send privacy, password or results" });
    }
    if (body.password !== undefined && body.privacy !== undefined && body.privacy !== 2) {
      ctx.addIssue({ code: "custom", path: ["password"], message: PASSWORD_NEEDS_PRIVACY_2 });
    }
  });
export type ReportUpdateInput = z.output<typeof ReportUpdateBodySchema>;
