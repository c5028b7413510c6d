// A purchase over its life (lib/purchases/lifecycle.ts): a code seen valid before and refused now (revoked), its
// support's end foreseen, the last verdict given while the item service is down, a code checked from too many
// places; the settings an admin makes for it, and each item's renewal link.
import { z } from "zod";

import { isoTimestamp } from "./common";
import { SUPPORT_STATES } from "./values";

/** What a code was, the last time the item service said it was valid: shown when it is refused now. */
export const PreviousPurchaseSchema = z
  .object({
    first_valid_at: isoTimestamp,
    last_valid_at: isoTimestamp,
    item: z.object({ id: z.number().int(), name: z.string() }),
    license_type: z.string(),
    supported_until: z.nullable(isoTimestamp),
    sold_at: z.nullable(isoTimestamp).describe("The sale's date, when it was checked after Gatehouse kept it"),
  })
  .describe("The purchase as the item service last told it");
export type PreviousPurchase = z.infer<typeof PreviousPurchaseSchema>;

export const SharedSuspicionSchema = z
  .object({
    window_days: z.number().int().describe("The days looked back"),
    tickets: z.number().int().describe("Distinct helpdesk tickets that checked the code in the window"),
    tokens: z.number().int().describe("Distinct API tokens that checked it"),
    addresses: z.number().int().describe("Distinct client addresses that checked it"),
  })
  .describe("The code was checked from more places than the admin's thresholds allow: possibly shared");
export type SharedSuspicion = z.infer<typeof SharedSuspicionSchema>;

export const PurchaseLifecycleSchema = z
  .object({
    revoked: z
      .boolean()
      .describe("The code was valid before and the item service refuses it now: the sale was probably reversed"),
    previously_valid: z
      .nullable(PreviousPurchaseSchema)
      .describe("When revoked: what was bought, and when it was last valid; null otherwise"),
    support_ends_in_days: z
      .nullable(z.number().int().nonnegative())
      .describe("A valid purchase whose support ends within the admin's notice period: the days left; else null"),
    renewal_url: z
      .nullable(z.string())
      .describe("The item's renewal link (set by an admin), when support has ended or ends soon; else null"),
    shared_suspected: z.nullable(SharedSuspicionSchema),
  })
  .describe("What Gatehouse knows of this purchase over its life");
export type PurchaseLifecycle = z.infer<typeof PurchaseLifecycleSchema>;

export const NO_LIFECYCLE: PurchaseLifecycle = {
  revoked: false,
  previously_valid: null,
  support_ends_in_days: null,
  renewal_url: null,
  shared_suspected: null,
};

/** The last verdict the item service gave about a code: what a check answers while it is down. */
export const LastVerdictSchema = z
  .object({
    outcome: z.enum(["valid", "invalid", "revoked"]),
    checked_at: isoTimestamp,
    checked_by: z.string().nullable().describe("The email of who got it; null for Gatehouse's own re-check"),
    reason: z.string().nullable().describe("Why it was not valid"),
    item: z.nullable(z.object({ id: z.number().int(), name: z.string() })),
    license_type: z.string().nullable(),
    supported_until: z.nullable(isoTimestamp),
    support: z.nullable(z.enum(SUPPORT_STATES)).describe("A valid purchase's support today"),
  })
  .describe("The last verdict, not fresh: the item service did not answer this time");
export type LastVerdict = z.infer<typeof LastVerdictSchema>;

// ---------------------------------------------------------------------------------------------------------
// The settings (Admin → Purchase codes)

const days = (max: number) =>
  z
    .number({ error: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(max, `must be at most ${max} days`);
const threshold = z
  .number({ error: "must be a number of distinct places" })
  .int("must be a whole number")
  .min(2, "must be at least 2 (one place is the buyer)")
  .max(10_000, "must be at most 10000");

const SWEEP_MAX_ITEMS = 500;

export const PurchaseLifecycleSettingsSchema = z.strictObject({
  sweep: z
    .strictObject({
      enabled: z.boolean({ error: "must be true or false" }).describe("Re-check valid codes on a schedule"),
      items: z
        .union(
          [
            z.literal("all"),
            z
              .array(z.number().int().positive(), { error: "must be a list of item ids" })
              .min(1, 'must name at least one item (or be "all")')
              .max(SWEEP_MAX_ITEMS, `must name at most ${SWEEP_MAX_ITEMS} items`),
          ],
          { error: 'must be "all" or a list of item ids' },
        )
        .describe('"all", or the items whose codes are re-checked'),
      every_days: days(365).describe("A code is re-checked when its last verdict is this many days old"),
    })
    .describe("The paced re-verification of valid codes (within PURCHASE_SWEEP_MAX_SHARE of the item API's budget)"),
  support_expiring_days: days(365).describe(
    "Support that ends within this many days is 'ending soon': listed, announced once, and said in the verdict",
  ),
  shared: z
    .strictObject({
      window_days: days(365),
      tickets: threshold.describe("Distinct helpdesk tickets"),
      tokens: threshold.describe("Distinct API tokens"),
      addresses: threshold.describe("Distinct client addresses"),
    })
    .describe("A code checked from at least this many places of one kind within the window is 'possibly shared'"),
});
export type PurchaseLifecycleSettings = z.infer<typeof PurchaseLifecycleSettingsSchema>;

export const DEFAULT_LIFECYCLE_SETTINGS: PurchaseLifecycleSettings = {
  sweep: { enabled: false, items: "all", every_days: 30 },
  support_expiring_days: 14,
  shared: { window_days: 30, tickets: 3, tokens: 3, addresses: 5 },
};
