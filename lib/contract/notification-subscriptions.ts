// Notifications (issue 35) as the portal API shows and accepts them: a person's own subscriptions and preferences,
// and a team channel's subscriptions (admins). A report topic may be narrowed to one project and one alert rule.
import { z } from "zod";

import { oneOf } from "./common";
import { ALERT_RULES, NOTIFICATION_TOPICS } from "./values";

/** Subscriptions one subscriber may hold at most (10 topics × projects and rules). */
export const MAX_NOTIFICATION_SUBSCRIPTIONS = 200;
/** A rule a subscription can narrow to: any drop, or only a drop to bad (null: the project's own rule). */
const NARROWING_RULES = ALERT_RULES.filter((rule) => rule !== "off");

const hhmm = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Give a time of day as "HH:MM", from 00:00 to 23:59.' });

export const NotificationSubscriptionSchema = z
  .strictObject({
    topic: z.enum(NOTIFICATION_TOPICS, { error: oneOf(NOTIFICATION_TOPICS) }),
    project: z
      .string()
      .trim()
      .min(1, { error: "Give a project's name, or null for every project." })
      .max(200)
      .nullable()
      .default(null)
      .describe("Only this project's reports (report topics only); null: every project"),
    rule: z
      .enum(NARROWING_RULES, { error: `${oneOf(NARROWING_RULES)}, or null for the project's own alert rule.` })
      .nullable()
      .default(null)
      .describe("any: every drop; to_bad: only a drop to bad (report topics only); null: the project's own alert rule"),
  })
  .refine((s) => s.topic.startsWith("report.") || (s.project === null && s.rule === null), {
    error: "Only report topics (report.regressed, report.recovered) narrow to a project or a rule.",
    path: ["project"],
  });
export type NotificationSubscription = z.infer<typeof NotificationSubscriptionSchema>;

export const NotificationSubscriptionsBodySchema = z.strictObject({
  subscriptions: z
    .array(NotificationSubscriptionSchema)
    .max(MAX_NOTIFICATION_SUBSCRIPTIONS, { error: `At most ${MAX_NOTIFICATION_SUBSCRIPTIONS} subscriptions.` })
    .describe("Every subscription the subscriber keeps: the list replaces the one before (duplicates count once)"),
});

export const NotificationSubscriptionsSchema = z.object({
  subscriptions: z.array(
    z.object({
      topic: z.enum(NOTIFICATION_TOPICS),
      project: z.string().nullable(),
      rule: z.enum(NARROWING_RULES).nullable(),
    }),
  ),
  topics: z.array(z.enum(NOTIFICATION_TOPICS)).describe("The topics this subscriber may have (a person: by his role)"),
});

export const NotificationChannelParamsSchema = z.strictObject({
  id: z.string().min(1).max(100).describe("The channel's id"),
});

const preferenceFields = {
  email_enabled: z.boolean().describe("false: no e-mail at all (alerts and the digest)"),
  quiet_hours: z
    .strictObject({ start: hhmm, end: hhmm })
    .refine((q) => q.start !== q.end, { error: "Quiet hours need an end other than their start.", path: ["end"] })
    .nullable()
    .describe("Messages that arrive between start and end (on your wall clock; may cross midnight) wait until end"),
  digest: z.strictObject({
    enabled: z.boolean(),
    day: z.number().int().min(0).max(6).describe("0 Sunday … 6 Saturday, in your time zone"),
    hour: z.number().int().min(0).max(23).describe("The hour it is sent, in your time zone"),
  }),
};

export const NotificationPreferencesBodySchema = z.strictObject(preferenceFields);
export type NotificationPreferencesBody = z.infer<typeof NotificationPreferencesBodySchema>;

export const NotificationPreferencesSchema = z.object({
  ...preferenceFields,
  time_zone: z.string().describe("The zone quiet hours and the digest's day and hour are read in"),
  time_zone_source: z
    .enum(["picked", "default"])
    .describe(
      "picked: the zone set on the account page; default: none set, so UTC (the server cannot know the browser's)",
    ),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

const settingsFields = {
  results_to_last: z
    .number()
    .int()
    .min(1, { error: "At least 1 result (1: a change alerts at once)." })
    .max(20, { error: "At most 20 results." })
    .describe("A report's change alerts once it has lasted this many results in a row (default 2)"),
  down_minutes: z
    .number()
    .int()
    .min(0, { error: "0 minutes or more (0: at once)." })
    .max(1440, { error: "At most 1440 minutes (a day)." })
    .describe("An upstream is down once it has been unavailable this many minutes (default 5)"),
  merge_window_minutes: z
    .number()
    .int()
    .min(0, { error: "0 minutes or more (0: no merging)." })
    .max(60, { error: "At most 60 minutes." })
    .describe("A message waits this long for repeats to merge into it (default 2)"),
};

export const NotificationSettingsBodySchema = z.strictObject(settingsFields);
export type NotificationSettingsBody = z.infer<typeof NotificationSettingsBodySchema>;

export const NotificationSettingsSchema = z.object({
  ...settingsFields,
  updated_at: z.string().nullable().describe("null: the defaults, never set"),
  updated_by: z.string().nullable(),
});
export type NotificationSettingsView = z.infer<typeof NotificationSettingsSchema>;
