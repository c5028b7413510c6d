// Webhook endpoints, their deliveries and attempts as the admin API shows and accepts them. An endpoint's secret
// (whsec_…) appears once, in the answer that creates or rotates it. No `server-only` and no Node modules.
import { z } from "zod";

import { onlyFields } from "./accounts";
import { isoTimestamp, oneOf } from "./common";
import { WEBHOOK_DELIVERY_EVENTS, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS } from "./values";

const url = z
  .string({ error: "url must be text" })
  .trim()
  .max(2048, "url must be at most 2048 characters")
  .pipe(
    z.url({ protocol: /^https?$/, error: "url must be an https:// URL, such as https://example.com/hooks/gatehouse" }),
  )
  .describe("Where to POST the events: https:// (http:// only with WEBHOOK_ALLOW_PRIVATE=1)");
const events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: oneOf(WEBHOOK_EVENTS) }), { error: "events must be a list" })
  .min(1, "events must name at least one event")
  .refine((list) => new Set(list).size === list.length, "events must not repeat an event")
  .describe("The events it wants");
const description = z
  .string({ error: "description must be text" })
  .trim()
  .max(200, "description must be at most 200 characters")
  .describe("What it is, for the admins");

export const WebhookCreateBodySchema = z.strictObject(
  { url, events, description: description.optional() },
  onlyFields(["url", "events", "description"]),
);
export type WebhookCreateBody = z.output<typeof WebhookCreateBodySchema>;

export const WebhookUpdateBodySchema = z
  .strictObject(
    {
      url: url.optional(),
      events: events.optional(),
      description: description.optional(),
      enabled: z
        .boolean({ error: "enabled must be true or false" })
        .optional()
        .describe("false pauses deliveries; true starts them again (after a disable for failing, too)"),
      rotate_secret: z
        .literal(true, { error: "rotate_secret must be true when given" })
        .optional()
        .describe("A new secret, answered once; the old one signs too for 24 hours"),
    },
    onlyFields(["url", "events", "description", "enabled", "rotate_secret"]),
  )
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), {
    message: "nothing to change: give at least one of url, events, description, enabled, rotate_secret",
    when: (payload) => payload.issues.length === 0,
  });
export type WebhookUpdateBody = z.output<typeof WebhookUpdateBodySchema>;

export const WebhookIdParamsSchema = z.object({
  id: z
    .uuid({ error: "must be a webhook endpoint id (a UUID)" })
    .transform((id) => id.toLowerCase())
    .describe("Endpoint id"),
});
export const WebhookDeliveryParamsSchema = WebhookIdParamsSchema.extend({
  delivery: z
    .string()
    .regex(/^msg_[0-9a-f]{32}$/, "must be a delivery id (msg_…)")
    .describe("Delivery id: the webhook-id header it was sent with"),
});

export const WebhookSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .describe("Why deliveries stopped: paused by an admin, or failing for three days"),
    disabled_at: z.nullable(isoTimestamp),
    failing_since: z.nullable(isoTimestamp).describe("The first failed attempt since the last success"),
    previous_secret_until: z.nullable(isoTimestamp).describe("After a rotation: the old secret signs too until then"),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .describe("A webhook endpoint. Its secret is never listed.");
export type WebhookOutput = z.infer<typeof WebhookSchema>;

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().describe("whsec_…: shown this once; verify each delivery's webhook-signature with it"),
});

export const WebhookAttemptSchema = z.object({
  at: isoTimestamp,
  ok: z.boolean(),
  status: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came"),
  duration_ms: z.number().int(),
  error: z.string().nullable().describe("Why no answer came: a refused address, a timeout, a refused connection"),
  response_excerpt: z.string().nullable().describe("The answer's first 1,000 characters"),
});

export const WebhookDeliverySchema = z.object({
  id: z.string().describe("msg_…: the webhook-id of every attempt"),
  event: z.enum(WEBHOOK_DELIVERY_EVENTS).describe("The event, or webhook.test (Send test event)"),
  status: z
    .enum(WEBHOOK_DELIVERY_STATUSES)
    .describe("pending (sent again at next_attempt_at), delivered, or failed (no retry left)"),
  attempts: z.number().int().nonnegative(),
  created_at: isoTimestamp,
  next_attempt_at: z.nullable(isoTimestamp),
  payload: z.string().describe("The exact body sent"),
  log: z.array(WebhookAttemptSchema).describe("Every attempt, newest first"),
});
export type WebhookDeliveryOutput = z.infer<typeof WebhookDeliverySchema>;
