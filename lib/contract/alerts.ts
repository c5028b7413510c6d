// The alerts list's query (GET /api/alerts, and the /alerts page's URL). Written in zod/mini, like the reports and
// projects lists' fields: the alerts page reads its URL with ALERT_LIST_FIELDS in the browser.
import * as z from "zod/mini";

import { choice, page, perPage, searchText } from "./fields";
import { ALERT_STATUSES, DEFAULT_PER_PAGE, REPORT_RESULTS } from "./values";

export const ALERT_LIST_FIELDS = {
  status: z
    .optional(choice(ALERT_STATUSES))
    .check(z.meta({ description: "unread (default), acknowledged or all", default: "unread" })),
  project: z
    .optional(searchText.check(z.minLength(1), z.maxLength(255)))
    .check(z.describe("Only this project's alerts")),
  to: z.optional(choice(REPORT_RESULTS)).check(z.describe("Only drops to this result")),
  per_page: z.optional(perPage(DEFAULT_PER_PAGE.alerts)),
  page: z.optional(page),
};

export const AlertListQuerySchema = z.strictObject(ALERT_LIST_FIELDS);
export type AlertListQuery = z.output<typeof AlertListQuerySchema>;
