// Reports over time, as the portal API shows and accepts them: a report's result history, trends by day, the
// compare of two dates, a project's schedule and its runs, regression alerts and their rules (the alerts list's
// query is ./alerts.ts, in zod/mini for the browser).
import { z } from "zod";

import { isoTimestamp, oneOf } from "./common";
import { TimeZoneSchema } from "./time-zone";
import {
  ALERT_RULES,
  DEFAULT_TREND_DAYS,
  REPORT_RESULTS,
  RESULT_SOURCES,
  RUN_STATUSES,
  RUN_TRIGGERS,
  SCHEDULE_FREQUENCIES,
  TREND_DAYS,
} from "./values";

const result = z.enum(REPORT_RESULTS);

const day = z.iso.date().describe("A calendar day, YYYY-MM-DD (UTC)");

// ---------------------------------------------------------------------------------------------------------
// History

export const HistoryEntrySchema = z.object({
  result,
  generated_at: isoTimestamp,
  seen_at: isoTimestamp.check(z.describe("When Gatehouse first saw this result")),
  source: z.enum(RESULT_SOURCES).describe("How Gatehouse saw it: an answer of the reports API, or a scheduled run"),
  previous_result: result.nullable().describe("The result before this one; null for the first Gatehouse saw"),
  change: z.enum(["first", "same", "better", "worse"]).describe("This result against the one before"),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const ReportHistorySchema = z.object({
  report_id: z.number().int().positive(),
  url: z.string().nullable().describe("The report's URL as last seen; null when Gatehouse has not seen it"),
  project: z.string().nullable(),
  entries: z.array(HistoryEntrySchema).describe("Newest first"),
  retention_days: z.number().int().positive(),
});
export type ReportHistory = z.infer<typeof ReportHistorySchema>;

// ---------------------------------------------------------------------------------------------------------
// Trends

const TREND_DAYS_TEXT = TREND_DAYS.map(String) as [string, ...string[]];

export const TrendQuerySchema = z.strictObject({
  days: z
    .enum(TREND_DAYS_TEXT, { error: oneOf(TREND_DAYS_TEXT) })
    .transform(Number)
    .optional()
    .meta({ description: "How many days back, today included", default: String(DEFAULT_TREND_DAYS) }),
  project: z
    .string()
    .min(1)
    .max(255, "must be at most 255 characters")
    .optional()
    .describe("Only this project's reports"),
});

export const TrendDaySchema = z.object({
  day,
  good: z.number().int(),
  decent: z.number().int(),
  bad: z.number().int(),
});
export type TrendDay = z.infer<typeof TrendDaySchema>;

export const TrendSchema = z
  .object({
    from: day,
    to: day,
    project: z.string().nullable(),
    days: z
      .array(TrendDaySchema)
      .describe("Every day from `from` to `to`, oldest first; a day without results counts 0"),
  })
  .describe("Each day counts the reports whose result was generated that day, by their last result of the day");
export type Trend = z.infer<typeof TrendSchema>;

export const ProjectMixSchema = z.object({
  project: z.string().nullable().describe("null: reports of no project"),
  reports: z.number().int().describe("Reports Gatehouse has seen in this project (within the retention)"),
  good: z.number().int(),
  decent: z.number().int(),
  bad: z.number().int(),
  last_generated_at: z.nullable(isoTimestamp),
});
export type ProjectMix = z.infer<typeof ProjectMixSchema>;

// ---------------------------------------------------------------------------------------------------------
// Compare

export const CompareQuerySchema = z
  .strictObject({
    from: day.describe("The earlier day: each report's last result up to its end"),
    to: day.describe("The later day: each report's last result up to its end"),
  })
  .refine((q) => q.from <= q.to, { message: "must not be after to", path: ["from"] });

export const CompareRowSchema = z.object({
  report_id: z.number().int().positive(),
  url: z.string(),
  from: result.nullable().describe("Its result on the earlier day; null when it had none yet"),
  to: result.nullable(),
  change: z.enum(["better", "worse", "same", "new", "gone"]),
});
export type CompareRow = z.infer<typeof CompareRowSchema>;

export const CompareSchema = z.object({
  project: z.string(),
  from: day,
  to: day,
  better: z.array(CompareRowSchema),
  worse: z.array(CompareRowSchema),
  same: z.number().int().describe("Reports with the same result on both days"),
  new: z.array(CompareRowSchema).describe("Reports with a result on the later day only"),
});
export type Compare = z.infer<typeof CompareSchema>;

// ---------------------------------------------------------------------------------------------------------
// Schedules

export const ScheduleBodySchema = z
  .strictObject({
    enabled: z.boolean({ error: "must be true or false" }),
    frequency: z.enum(SCHEDULE_FREQUENCIES, { error: oneOf(SCHEDULE_FREQUENCIES) }),
    weekday: z
      .number({ error: "must be a number from 1 (Monday) to 7 (Sunday)" })
      .int("must be a whole number from 1 (Monday) to 7 (Sunday)")
      .min(1, "must be from 1 (Monday) to 7 (Sunday)")
      .max(7, "must be from 1 (Monday) to 7 (Sunday)")
      .optional()
      .describe("For weekly: 1 Monday … 7 Sunday"),
    time: z
      .string({ error: "must be a time of day, HH:MM" })
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time of day, HH:MM (00:00 to 23:59)")
      .describe("Local time of day in time_zone, HH:MM"),
    time_zone: TimeZoneSchema,
  })
  .superRefine((body, ctx) => {
    if (body.frequency === "weekly" && body.weekday === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["weekday"],
        message: "is required for a weekly schedule: 1 (Monday) to 7 (Sunday)",
      });
    }
    if (body.frequency === "daily" && body.weekday !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["weekday"],
        message: "only applies to a weekly schedule; leave it out for daily",
      });
    }
  });
export type ScheduleInput = z.output<typeof ScheduleBodySchema>;

export const ScheduleSchema = z.object({
  project: z.string(),
  enabled: z.boolean(),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  weekday: z.number().int().min(1).max(7).nullable(),
  time: z.string(),
  time_zone: z.string(),
  next_run_at: z.nullable(isoTimestamp).describe("The next run (UTC); null while disabled"),
  updated_at: isoTimestamp,
  updated_by: z.string().nullable(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const RunSchema = z.object({
  id: z.string(),
  project: z.string(),
  trigger: z.enum(RUN_TRIGGERS),
  status: z.enum(RUN_STATUSES).describe("waiting: under way, waiting for the budget all runs share"),
  due_at: isoTimestamp,
  started_at: isoTimestamp,
  finished_at: z.nullable(isoTimestamp),
  total: z.number().int().nullable().describe("Reports to regenerate; null until the project's reports are listed"),
  done: z.number().int(),
  failed: z.number().int(),
  outcome: z.string().nullable().describe("What happened, in words"),
});
export type Run = z.infer<typeof RunSchema>;

export const ProjectScheduleSchema = z.object({
  schedule: ScheduleSchema.nullable(),
  runs: z.array(RunSchema).describe("The latest runs, newest first"),
  max_share: z.number().describe("The share of the reports API's rate budget all runs together may spend"),
  calls_per_minute: z.number().describe("What that share is, in calls a minute, for all runs of every project"),
});

// ---------------------------------------------------------------------------------------------------------
// Alerts

export const AlertRuleBodySchema = z.strictObject({
  rule: z
    .enum(ALERT_RULES, { error: oneOf(ALERT_RULES) })
    .describe("any: every drop; to_bad: only a drop to bad; off: none"),
});
export const AlertRuleSchema = z.object({
  project: z.string(),
  rule: z.enum(ALERT_RULES),
  updated_at: z.nullable(isoTimestamp).describe("null: the default rule, never set"),
  updated_by: z.string().nullable(),
});
export type AlertRuleSetting = z.infer<typeof AlertRuleSchema>;

export const AlertSchema = z.object({
  id: z.number().int().positive(),
  report_id: z.number().int().positive(),
  url: z.string(),
  project: z.string().nullable(),
  from: result,
  to: result,
  generated_at: isoTimestamp,
  created_at: isoTimestamp,
  acknowledged_at: z.nullable(isoTimestamp),
  acknowledged_by: z.string().nullable(),
});
export type Alert = z.infer<typeof AlertSchema>;

export const AlertCountSchema = z.object({ unread: z.number().int() });

export const AlertAckBodySchema = z
  .strictObject({
    ids: z
      .array(z.number().int().positive(), { error: "must be a list of alert ids" })
      .min(1, "must name at least one alert")
      .max(100, "must name at most 100 alerts")
      .optional(),
    all: z.literal(true, { error: "can only be true (acknowledge every unread alert)" }).optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.all === undefined), {
    message: "Send either ids (a list of alert ids) or all: true",
    path: [],
  });

export const AlertAckSchema = z.object({
  acknowledged: z.number().int().describe("Alerts acknowledged now (already acknowledged ones are not counted)"),
  /** The acknowledgement's time: /api/alerts/unacknowledge takes it to undo it. */
  acknowledged_at: isoTimestamp,
});

export const AlertUnackBodySchema = z.strictObject({
  /** The time an acknowledgement of yours answered. */
  acknowledged_at: isoTimestamp,
});

export const AlertUnackSchema = z.object({
  unread: z.number().int().describe("Alerts unread again (those you acknowledged at that time)"),
});

// ---------------------------------------------------------------------------------------------------------
// The share password

export const SharePasswordSchema = z.object({
  report_id: z.number().int().positive(),
  password: z.string(),
  set_at: isoTimestamp,
  set_by: z.string().nullable(),
});
