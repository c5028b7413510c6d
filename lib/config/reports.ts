// Reports over time (lib/reports): how long recorded results are kept, and what a scheduled run may spend of the
// reports API's budget. Read by ./server.ts with the other rooms' settings.
import "server-only";

import { z } from "zod";

export interface ReportsConfig {
  /** Days a recorded result is kept (REPORT_HISTORY_RETENTION_DAYS). */
  retentionDays: number;
  /** The reports API's rate budget, in calls a minute (REPORTS_API_CALLS_PER_MINUTE): the document states none. */
  callsPerMinute: number;
  /** The share of that budget a scheduled run may spend (REPORT_SCHEDULE_MAX_SHARE, 0–1). */
  scheduleMaxShare: number;
}

export const DEFAULT_REPORTS: Readonly<ReportsConfig> = Object.freeze({
  retentionDays: 400,
  callsPerMinute: 60,
  scheduleMaxShare: 0.5,
});

/** The variables of this room, in the order their problems are listed. */
export const reportVariables = {
  REPORT_HISTORY_RETENTION_DAYS: z.coerce
    .number({ error: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, "must be at least 1")
    .max(3650, "must be at most 3650")
    .default(DEFAULT_REPORTS.retentionDays),
  REPORTS_API_CALLS_PER_MINUTE: z.coerce
    .number({ error: "must be a number of calls per minute" })
    .int("must be a whole number of calls per minute")
    .min(1, "must be at least 1")
    .max(100_000, "must be at most 100000")
    .default(DEFAULT_REPORTS.callsPerMinute),
  REPORT_SCHEDULE_MAX_SHARE: z.coerce
    .number({ error: "must be a share between 0 and 1, e.g. 0.5" })
    .gt(0, "must be more than 0")
    .max(1, "must be at most 1 (the whole budget)")
    .default(DEFAULT_REPORTS.scheduleMaxShare),
};

export function reportsConfig(vars: z.infer<z.ZodObject<typeof reportVariables>>): ReportsConfig {
  return {
    retentionDays: vars.REPORT_HISTORY_RETENTION_DAYS,
    callsPerMinute: vars.REPORTS_API_CALLS_PER_MINUTE,
    scheduleMaxShare: vars.REPORT_SCHEDULE_MAX_SHARE,
  };
}
