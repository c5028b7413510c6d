// Area A's reports as the portal API shows and accepts them. Written in zod/mini: the reports page reads its URL
// with REPORT_LIST_FIELDS in the browser, so this file's zod is the small one (lib/contract/fields.ts).
import * as z from "zod/mini";

import { choice, isoTimestamp, page, perPage, positiveIdParam, searchText, sortDirection } from "./fields";
import {
  DEFAULT_PER_PAGE,
  DEFAULT_SORT,
  REPORT_PASSWORD_MAX_LENGTH,
  REPORT_PASSWORD_MIN_LENGTH,
  REPORT_RESULTS,
  REPORT_SORT_FIELDS,
} from "./values";

export const ReportSchema = z
  .object({
    id: z.int().check(z.positive()),
    url: z.string(),
    project: z.nullable(z.string()).check(z.describe("Project name; null when the report belongs to none")),
    result: z.enum(REPORT_RESULTS),
    generated_at: z
      .nullable(isoTimestamp)
      .check(z.describe("When the report was generated (ISO 8601 UTC); null if not yet")),
    privacy: z.union([z.literal(0), z.literal(1), z.literal(2)]).check(z.describe("0 Public, 1 Private, 2 Password")),
  })
  .check(z.describe("A web-page report. Its password is never returned."));
export type Report = z.infer<typeof ReportSchema>;

/** GET /api/reports's query, field by field (the reports page reads its URL with them). */
export const REPORT_LIST_FIELDS = {
  search: z.optional(searchText).check(z.describe("Search text, matched against search_by")),
  search_by: z.optional(choice(["url"])).check(z.meta({ description: "Field to search", default: "url" })),
  project: z.optional(searchText).check(z.describe("Only reports of this project")),
  result: z.optional(choice(REPORT_RESULTS)).check(z.describe("Only reports with this result")),
  sort_by: z.optional(choice(REPORT_SORT_FIELDS)).check(
    z.meta({
      description: "Sort field (id: the order reports were created in)",
      default: DEFAULT_SORT.reports.sort_by,
    }),
  ),
  sort: z.optional(sortDirection(DEFAULT_SORT.reports.sort)),
  per_page: z.optional(perPage(DEFAULT_PER_PAGE.reports)),
  page: z.optional(page),
};

export const ReportListQuerySchema = z.strictObject(REPORT_LIST_FIELDS);
export type ReportListQuery = z.output<typeof ReportListQuerySchema>;

export const ReportIdParamsSchema = z.object({ id: positiveIdParam.check(z.describe("Report id")) });

const privacy = z
  .union([z.literal(0), z.literal(1), z.literal(2)], { error: "must be 0 (Public), 1 (Private) or 2 (Password)" })
  .check(z.describe("0 Public, 1 Private, 2 Password"));
const password = z
  .string({ error: "must be a string" })
  .check(
    z.minLength(1, "must not be empty"),
    z.minLength(REPORT_PASSWORD_MIN_LENGTH, `must be at least ${REPORT_PASSWORD_MIN_LENGTH} characters`),
    z.maxLength(REPORT_PASSWORD_MAX_LENGTH, `must be at most ${REPORT_PASSWORD_MAX_LENGTH} characters`),
    z.describe("Password of the report page; only with privacy 2. Never returned."),
  );

const PASSWORD_NEEDS_PRIVACY_2 = "only applies when privacy is 2 (Password); send privacy 2 or leave password out";

export const ReportCreateBodySchema = z
  .strictObject({
    url: z
      .string({
        error: (issue) => (issue.input === undefined ? "is required: the web page's URL" : "must be a string"),
      })
      .check(
        z.maxLength(2048, "must be at most 2048 characters"),
        z.refine(
          (value) => /^https?:\/\//i.test(value) && URL.canParse(value),
          "must be an absolute http:// or https:// URL",
        ),
        z.describe("The web page's URL (http or https)"),
      ),
    privacy: z.optional(privacy),
    password: z.optional(password),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.privacy === 2 && body.password === undefined) {
        ctx.addIssue({ code: "custom", path: ["password"], message: "is required when privacy is 2 (Password)" });
      }
      if (body.password !== undefined && body.privacy !== 2) {
        ctx.addIssue({ code: "custom", path: ["password"], message: PASSWORD_NEEDS_PRIVACY_2 });
      }
    }),
  );
export type ReportCreateInput = z.output<typeof ReportCreateBodySchema>;

export const ReportUpdateBodySchema = z
  .strictObject({
    privacy: z.optional(privacy),
    password: z.optional(password),
    results: z.optional(
      z.literal(true, { error: "can only be true (regenerate the report's results); leave it out otherwise" }),
    ),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.privacy === undefined && body.password === undefined && body.results === undefined) {
        ctx.addIssue({ code: "custom", path: [], message: "Nothing to update: send privacy, password or results" });
      }
      if (body.password !== undefined && body.privacy !== undefined && body.privacy !== 2) {
        ctx.addIssue({ code: "custom", path: ["password"], message: PASSWORD_NEEDS_PRIVACY_2 });
      }
    }),
  );
export type ReportUpdateInput = z.output<typeof ReportUpdateBodySchema>;
