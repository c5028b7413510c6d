// Notification channels, the mail server and the deliveries as the admin API shows and accepts them (issue 35).
// A channel's webhook URL and the mail server's password are secrets: accepted, sealed, never answered again (a
// channel shows `target_hint`, the mail server `password_set`). No `server-only` and no Node modules.
import { z } from "zod";

import { onlyFields } from "./accounts";
import { isoTimestamp, oneOf } from "./common";
import { TimeZoneSchema } from "./time-zone";
import { NOTIFICATION_CHANNEL_KINDS, NOTIFICATION_DELIVERY_STATUSES, NOTIFICATION_SMTP_SECURITY } from "./values";

const name = z
  .string({ error: "name must be text" })
  .trim()
  .min(1, "name is required")
  .max(100, "name must be at most 100 characters")
  .describe("What the admins call it (#web-perf, Web team)");
const target = z
  .string({ error: "target must be text" })
  .trim()
  .min(1, "target is required")
  .max(2048, "target must be at most 2048 characters")
  .describe(
    "Slack: the incoming webhook's URL (https://hooks.slack.com/services/…); Teams: the Workflows or connector webhook's URL (https); e-mail: one address or several, separated by commas. Never answered again",
  );
const digestDay = z
  .number({ error: "digest_day must be a number from 0 (Sunday) to 6 (Saturday)" })
  .int("digest_day must be a whole number from 0 (Sunday) to 6 (Saturday)")
  .min(0, "digest_day must be from 0 (Sunday) to 6 (Saturday)")
  .max(6, "digest_day must be from 0 (Sunday) to 6 (Saturday)");
const digestHour = z
  .number({ error: "digest_hour must be a number from 0 to 23" })
  .int("digest_hour must be a whole number from 0 to 23")
  .min(0, "digest_hour must be from 0 to 23")
  .max(23, "digest_hour must be from 0 to 23");
const digestEnabled = z.boolean({ error: "digest_enabled must be true or false" });

const CHANNEL_FIELDS = ["kind", "name", "target", "time_zone", "digest_enabled", "digest_day", "digest_hour"];

export const ChannelCreateBodySchema = z.strictObject(
  {
    kind: z.enum(NOTIFICATION_CHANNEL_KINDS, { error: oneOf(NOTIFICATION_CHANNEL_KINDS) }),
    name,
    target,
    time_zone: TimeZoneSchema.optional().describe("The IANA zone of the digest's day and hour (UTC unless given)"),
    digest_enabled: digestEnabled.optional().describe("Whether the weekly digest is sent here (true unless given)"),
    digest_day: digestDay.optional().describe("The digest's day: 0 Sunday … 6 Saturday (1, Monday, unless given)"),
    digest_hour: digestHour.optional().describe("The digest's hour in time_zone, 0–23 (9 unless given)"),
  },
  onlyFields(CHANNEL_FIELDS),
);
export type ChannelCreateBody = z.output<typeof ChannelCreateBodySchema>;

export const ChannelUpdateBodySchema = z
  .strictObject(
    {
      name: name.optional(),
      target: target.optional(),
      time_zone: TimeZoneSchema.optional(),
      digest_enabled: digestEnabled.optional(),
      digest_day: digestDay.optional(),
      digest_hour: digestHour.optional(),
      enabled: z
        .boolean({ error: "enabled must be true or false" })
        .optional()
        .describe("false: nothing is sent here (what is waiting is dropped); true: sending again"),
    },
    onlyFields([...CHANNEL_FIELDS.slice(1), "enabled"]),
  )
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), {
    message:
      "nothing to change: give at least one of name, target, time_zone, digest_enabled, digest_day, digest_hour, enabled",
    when: (payload) => payload.issues.length === 0,
  });
export type ChannelUpdateBody = z.output<typeof ChannelUpdateBodySchema>;

export const ChannelIdParamsSchema = z.object({
  id: z
    .uuid({ error: "must be a channel id (a UUID)" })
    .transform((id) => id.toLowerCase())
    .describe("Channel id"),
});

export const ChannelSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(NOTIFICATION_CHANNEL_KINDS),
    name: z.string(),
    target_hint: z
      .string()
      .describe("The webhook's host and the URL's last 4 characters (never the URL), or the e-mail addresses"),
    time_zone: z.string(),
    digest_enabled: z.boolean(),
    digest_day: z.number().int(),
    digest_hour: z.number().int(),
    enabled: z.boolean(),
    sendable: z
      .string()
      .nullable()
      .describe("Why nothing can be sent here now (an e-mail channel without a mail server); null when it can"),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .describe("A team's channel. Its webhook URL is never answered.");
export type ChannelOutput = z.infer<typeof ChannelSchema>;

export const NotificationAttemptSchema = z.object({
  at: isoTimestamp,
  ok: z.boolean(),
  error: z.string().nullable().describe("Why it was not sent, in a sentence (never a secret)"),
});

export const NotificationDeliverySchema = z.object({
  id: z.string(),
  topic: z.string().describe("The topic, digest or test"),
  title: z.string().describe("What it says, in one line (merged repeats named)"),
  status: z
    .enum(NOTIFICATION_DELIVERY_STATUSES)
    .describe("held (merging, quiet hours), pending (tried at not_before), sent, failed (retries spent), dropped"),
  attempts: z.number().int().nonnegative(),
  created_at: isoTimestamp,
  not_before: z.nullable(isoTimestamp).describe("When it is tried next (held or pending)"),
  sent_at: z.nullable(isoTimestamp),
  last_error: z.string().nullable(),
  log: z.array(NotificationAttemptSchema).describe("Every attempt, newest first"),
});
export type NotificationDeliveryOutput = z.infer<typeof NotificationDeliverySchema>;

export const TestSendSchema = z.object({
  sent: z.boolean().describe("Whether the channel or mail server took the message"),
  error: z.string().nullable().describe("Why not, in a sentence; the delivery is retried like any"),
  delivery: NotificationDeliverySchema.nullable(),
});

const port = z
  .number({ error: "port must be a number, such as 587" })
  .int("port must be a whole number")
  .min(1, "port must be from 1 to 65535")
  .max(65535, "port must be from 1 to 65535");
const email = z
  .string({ error: "must be text" })
  .trim()
  .max(254, "must be at most 254 characters")
  .pipe(z.email({ error: "must be an e-mail address, such as alerts@example.com" }));

export const SmtpBodySchema = z.strictObject(
  {
    host: z
      .string({ error: "host must be text" })
      .trim()
      .min(1, "host is required")
      .max(253, "host must be at most 253 characters")
      .regex(/^[A-Za-z0-9.:[\]-]+$/, "host must be a host name or address, such as smtp.example.com")
      .describe("The mail server's host"),
    port: port.describe("587 for STARTTLS, 465 for TLS"),
    security: z
      .enum(NOTIFICATION_SMTP_SECURITY, { error: oneOf(NOTIFICATION_SMTP_SECURITY) })
      .describe(
        "starttls: plain, then STARTTLS (required with a user and password: they never cross in clear); tls: TLS from the first byte",
      ),
    username: z
      .string({ error: "username must be text" })
      .trim()
      .max(254, "username must be at most 254 characters")
      .nullable()
      .optional()
      .describe("The user to sign in as; none: no sign-in"),
    password: z
      .string({ error: "password must be text" })
      .max(1024, "password must be at most 1024 characters")
      .nullable()
      .optional()
      .describe("Sealed at rest, never answered; left out: the stored one is kept; null: removed"),
    from_address: email.describe("The From of every mail"),
  },
  onlyFields(["host", "port", "security", "username", "password", "from_address"]),
);
export type SmtpBody = z.output<typeof SmtpBodySchema>;

export const SmtpSchema = z
  .object({
    configured: z.boolean().describe("false: no mail server, so no e-mail can be sent"),
    host: z.string().nullable(),
    port: z.number().int().nullable(),
    security: z.enum(NOTIFICATION_SMTP_SECURITY).nullable(),
    username: z.string().nullable(),
    password_set: z.boolean(),
    from_address: z.string().nullable(),
    set_at: z.nullable(isoTimestamp),
  })
  .describe("The mail server. Its password is never answered.");
export type SmtpOutput = z.infer<typeof SmtpSchema>;

export const SmtpTestBodySchema = z.strictObject(
  { to: email.describe("Where to send the test mail") },
  onlyFields(["to"]),
);

export const UnsubscribeQuerySchema = z.object({
  token: z
    .string({ error: "token is required: open the link of the e-mail as it came" })
    .min(1, "token is required: open the link of the e-mail as it came")
    .max(4096, "token is too long: open the link of the e-mail as it came")
    .describe("The e-mail's signed unsubscribe token"),
});

export const UnsubscribeSchema = z.object({
  unsubscribed: z
    .string()
    .describe("What was stopped: a topic (his subscriptions to it removed) or all (no e-mail at all)"),
  message: z.string(),
});
