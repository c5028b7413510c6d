// The purchase check beside a helpdesk ticket (POST /api/helpdesk/lookup): the ticket's text in, one verdict per
// code found in it out. A verdict carries the code's last 4 characters, never the code: the helpdesk shows it
// beside a ticket that holds the code already, and its answers pass through the helpdesk's servers and logs.
import { z } from "zod";

import { isoTimestamp } from "./common";
import { LastVerdictSchema, PurchaseLifecycleSchema } from "./purchase-lifecycle";
import {
  HelpdeskTicketSchema,
  PurchaseHistoryEntrySchema,
  PurchaseHistorySummarySchema,
  PurchaseSchema,
} from "./purchases";
import {
  HELPDESK_MAX_CODES,
  HELPDESK_MAX_TEXT_LENGTH,
  HELPDESK_LAST_LOOKUPS,
  HELPDESK_SYSTEMS,
  HELPSCOUT_SECRET_LENGTH,
  PURCHASE_OUTCOMES,
  SUPPORT_STATES,
} from "./values";

// The ticket schema lives beside the history that keeps it (./purchases.ts), which the checker's body takes too.
export type { HelpdeskTicket } from "./purchases";

export const HelpdeskLookupBodySchema = z.strictObject({
  text: z
    .string({ error: "is required: the ticket's subject and messages, as text" })
    .max(HELPDESK_MAX_TEXT_LENGTH, `must be at most ${HELPDESK_MAX_TEXT_LENGTH} characters (send the newest messages)`)
    .describe(
      `The ticket's subject and messages as plain text; codes are found anywhere in it (at most ${HELPDESK_MAX_CODES} are checked)`,
    ),
  ticket: HelpdeskTicketSchema,
});

/** The purchase as the item service told it, without the code itself. */
export const HelpdeskPurchaseSchema = PurchaseSchema.omit({ purchase_code: true });

export const HelpdeskVerdictSchema = z
  .object({
    code_last4: z.string().describe("The last 4 characters of the code checked"),
    outcome: z
      .enum([...PURCHASE_OUTCOMES, "not_checked"])
      .describe(
        "valid; invalid; revoked: valid before and refused now (a reversed sale: see lifecycle.previously_valid); failed: the item service could not answer (message says why, and last_verdict holds the last one); not_checked: an almost-code whose correction cannot be known (a character missing)",
      ),
    valid: z.boolean(),
    purchase: z.nullable(HelpdeskPurchaseSchema).describe("The purchase, when valid"),
    support: z.nullable(z.enum(SUPPORT_STATES)).describe("A valid purchase's support today; null otherwise"),
    message: z.nullable(z.string()).describe("Why the code is not valid, was not checked, or the check failed"),
    almost: z
      .nullable(
        z.object({
          slip: z.string().describe('The slip in words, e.g. "letter O at position 27 — did you mean 0?"'),
          corrected: z.boolean().describe("The verdict is of the corrected code (the slip's mend is certain)"),
        }),
      )
      .describe("The ticket held an almost-code, one slip from a purchase code's shape; null for a code as it is"),
    history: PurchaseHistorySummarySchema,
    checked_at: z.nullable(isoTimestamp).describe("When the item service answered; null when not checked"),
    lifecycle: PurchaseLifecycleSchema,
    last_verdict: z
      .nullable(LastVerdictSchema)
      .describe(
        "failed, for a code checked before: the last verdict the item service gave (not fresh; message says so); else null",
      ),
  })
  .describe("One code found in the ticket, and what the item service said of it");
export type HelpdeskVerdict = z.infer<typeof HelpdeskVerdictSchema>;

export const HelpdeskLookupSchema = z.object({
  ticket: z.object({ system: z.enum(HELPDESK_SYSTEMS), id: z.string(), url: z.string().nullable() }),
  codes: z.array(HelpdeskVerdictSchema).describe("In the order the codes appear in the text"),
  not_checked: z
    .number()
    .int()
    .nonnegative()
    .describe(`Codes beyond the first ${HELPDESK_MAX_CODES}, found and not checked`),
});
export type HelpdeskLookup = z.infer<typeof HelpdeskLookupSchema>;

// ---------------------------------------------------------------------------------------------------------
// Help Scout's dynamic app (POST /api/helpdesk/helpscout): the conversation open in an agent's sidebar, signed by
// Help Scout with the secret made on Admin → Helpdesk, answered with a card of HTML.

/** Help Scout numbers its conversations, mailboxes and people: a number, or its digits as text. */
const helpScoutId = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z.string().regex(/^\d{1,20}$/, "must be Help Scout's number for it"),
]);

export const HelpScoutRequestSchema = z
  .object({
    ticket: z
      .union([
        z.literal(false),
        z.object({
          id: helpScoutId.describe("The conversation's id: its address in Help Scout, and the ticket's id here"),
          number: helpScoutId.optional().describe("The conversation's number, as agents see it"),
          subject: z
            .string()
            .max(HELPDESK_MAX_TEXT_LENGTH, `must be at most ${HELPDESK_MAX_TEXT_LENGTH} characters`)
            .optional()
            .describe("The conversation's subject: the codes in it are checked"),
        }),
      ])
      .describe("The conversation; false for a draft, which has none yet"),
    customer: z
      .object({ id: helpScoutId.optional(), email: z.string().nullable().optional() })
      .optional()
      .describe("The customer (not used)"),
    user: z
      .object({
        id: helpScoutId.optional(),
        email: z.string().max(320).nullable().optional().describe("Kept as who checked, when Help Scout sends it"),
      })
      .optional()
      .describe("The agent looking at the conversation"),
    mailbox: z.object({ id: helpScoutId.optional() }).optional().describe("The mailbox (not used)"),
  })
  .describe("Help Scout's dynamic-app request; fields Help Scout leaves out are absent, and others are ignored");

export const HelpScoutCardSchema = z
  .object({ html: z.string().describe("The card, in the markup of Help Scout's sidebar, every outside text escaped") })
  .describe("What Help Scout shows in the sidebar");

// ---------------------------------------------------------------------------------------------------------
// Admin → Helpdesk (GET /api/admin/helpdesk, POST and DELETE /api/admin/helpdesk/helpscout-secret)

export const HelpScoutSecretStatusSchema = z.object({
  set: z.boolean().describe("A secret is set: Help Scout's signed requests are answered"),
  set_at: z.nullable(isoTimestamp).describe("When the secret was made"),
  set_by: z.string().nullable().describe("The admin who made it"),
  callback_url: z.string().describe("The Callback URL to paste into Help Scout's app"),
});
export type HelpScoutSecretStatus = z.infer<typeof HelpScoutSecretStatusSchema>;

export const HelpScoutSecretSchema = HelpScoutSecretStatusSchema.extend({
  rotated: z.boolean().describe("It replaced a secret that was set, whose signatures are refused from now on"),
  secret: z
    .string()
    .describe(
      `The secret to paste into Help Scout's app (at most ${HELPSCOUT_SECRET_LENGTH} characters, as Help Scout allows), shown this once`,
    ),
});
export type HelpScoutSecret = z.infer<typeof HelpScoutSecretSchema>;

const lastLookups = PurchaseHistoryEntrySchema.array().describe(
  `The helpdesk's last ${HELPDESK_LAST_LOOKUPS} checks, newest first`,
);

export const HelpdeskSettingsSchema = z.object({
  helpscout: HelpScoutSecretStatusSchema,
  last_lookups: z
    .object({ zendesk: lastLookups, freshdesk: lastLookups, helpscout: lastLookups, other: lastLookups })
    .describe("Per helpdesk, its last checks (source helpdesk)"),
});
export type HelpdeskSettings = z.infer<typeof HelpdeskSettingsSchema>;
