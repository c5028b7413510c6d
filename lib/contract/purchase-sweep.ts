// What admins and support people see of the purchase lifecycle's background work (lib/purchases/sweep.ts,
// lib/purchases/lifecycle-admin.ts): the settings page's state, an item's renewal link, the list of purchases
// whose support ends soon.
import { z } from "zod";

import { isoTimestamp, PageMetaSchema, positiveIdParam } from "./common";
import { page, perPage } from "./fields";
import { PurchaseLifecycleSettingsSchema } from "./purchase-lifecycle";
import { DEFAULT_PER_PAGE } from "./values";

export const RenewalLinkSchema = z.object({
  item_id: z.number().int().positive(),
  renewal_url: z.string().describe("Shown where the item's support has ended or ends soon"),
  updated_at: isoTimestamp,
  updated_by: z.string().nullable(),
});
export type RenewalLink = z.infer<typeof RenewalLinkSchema>;

export const PurchaseLifecycleStateSchema = z
  .object({
    settings: PurchaseLifecycleSettingsSchema,
    updated_at: z.nullable(isoTimestamp).describe("When an admin last saved them; null: the defaults"),
    updated_by: z.string().nullable(),
    enrolled: z.number().int().nonnegative().describe("Valid codes kept sealed for the sweep now"),
    due: z.number().int().nonnegative().describe("Of those, the ones whose verdict is older than every_days"),
    waiting_rechecks: z
      .number()
      .int()
      .nonnegative()
      .describe("Codes answered from their last verdict while the item API was down, waiting for a re-check"),
    budget: z.object({
      items_calls_per_minute: z.number().describe("ITEMS_API_CALLS_PER_MINUTE"),
      max_share: z.number().describe("PURCHASE_SWEEP_MAX_SHARE"),
      sweep_calls_per_minute: z.number().describe("What the sweep and the re-checks may spend together"),
    }),
    renewal_links: z.array(RenewalLinkSchema),
  })
  .describe("The purchase lifecycle's settings and what the sweep has to do");
export type PurchaseLifecycleState = z.infer<typeof PurchaseLifecycleStateSchema>;

export const PurchaseLifecycleSavedSchema = PurchaseLifecycleStateSchema.extend({
  forgotten: z
    .number()
    .int()
    .nonnegative()
    .describe("Codes whose item the sweep no longer covers: their seals were removed at once"),
});

export const SweepStartedSchema = z.object({
  queued: z.literal(true),
  message: z.string(),
});

const httpsUrl = z
  .url({ protocol: /^https$/, error: "must be an https:// address" })
  .max(2000, "must be at most 2000 characters");

export const RenewalLinkBodySchema = z.strictObject({
  renewal_url: z.nullable(httpsUrl).describe("The page where a buyer renews support (https); null removes the link"),
});

export const ItemIdParamsSchema = z.strictObject({ id: positiveIdParam });

export const RenewalLinkAnswerSchema = z.object({
  item_id: z.number().int().positive(),
  renewal_url: z.string().nullable(),
});

const DAYS_TEXT = "must be a whole number of days from 1 to 365";

export const SupportExpiringQuerySchema = z.strictObject({
  days: z
    .optional(
      z.pipe(z.string().regex(/^[1-9]\d{0,2}$/, DAYS_TEXT), z.transform(Number).pipe(z.number().max(365, DAYS_TEXT))),
    )
    .describe("Support ending within this many days (default: the admin's support_expiring_days)"),
  item_id: z.optional(positiveIdParam).describe("Only purchases of this item"),
  per_page: z.optional(perPage(DEFAULT_PER_PAGE.supportExpiring)),
  page: z.optional(page),
});
export type SupportExpiringQuery = z.output<typeof SupportExpiringQuerySchema>;

export const SupportExpiringRowSchema = z.object({
  code_last4: z.string().describe("The code's last 4 characters (never the whole code)"),
  item: z.object({ id: z.number().int(), name: z.string() }),
  license_type: z.string(),
  supported_until: isoTimestamp,
  days_left: z.number().int().nonnegative(),
  last_checked_at: z.string().describe("When the item service last gave its verdict about it (ISO 8601, UTC)"),
  renewal_url: z.string().nullable().describe("The item's renewal link, when an admin set one"),
});
export type SupportExpiringRow = z.infer<typeof SupportExpiringRowSchema>;

/** The list's page, its meta also saying the window it covers. */
export const SupportExpiringPageSchema = z.object({
  data: z.array(SupportExpiringRowSchema),
  meta: PageMetaSchema.extend({ days: z.number().int().describe("The window the list covers, in days") }),
});
export type SupportExpiringPage = z.infer<typeof SupportExpiringPageSchema>;
