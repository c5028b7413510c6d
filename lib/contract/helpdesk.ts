// The purchase check beside a helpdesk ticket (POST /api/helpdesk/lookup): the ticket's text in, one verdict per
// code found in it out. A verdict carries the code's last 4 characters, never the code: the helpdesk shows it
// beside a ticket that holds the code already, and its answers pass through the helpdesk's servers and logs.
import { z } from "zod";

import { isoTimestamp, oneOf } from "./common";
import { PurchaseHistorySummarySchema, PurchaseSchema } from "./purchases";
import {
  HELPDESK_MAX_CODES,
  HELPDESK_MAX_TEXT_LENGTH,
  HELPDESK_SYSTEMS,
  HELPDESK_TICKET_ID_MAX_LENGTH,
  HELPDESK_TICKET_URL_MAX_LENGTH,
  PURCHASE_OUTCOMES,
  SUPPORT_STATES,
} from "./values";

export const HelpdeskTicketSchema = z
  .strictObject(
    {
      system: z.enum(HELPDESK_SYSTEMS, { error: oneOf(HELPDESK_SYSTEMS) }).describe("The helpdesk the ticket is in"),
      id: z
        .string({ error: "is required: the ticket's id in its helpdesk, as text" })
        .trim()
        .min(1, "must not be empty: the ticket's id in its helpdesk")
        .max(HELPDESK_TICKET_ID_MAX_LENGTH, `must be at most ${HELPDESK_TICKET_ID_MAX_LENGTH} characters`)
        .regex(/^[\x21-\x7e]*$/, "must be printable ASCII without spaces, as helpdesks number their tickets")
        .describe("The ticket's id (or number) in its helpdesk"),
      url: z
        .url({ protocol: /^https?$/, error: "must be the ticket's https:// (or http://) address" })
        .max(HELPDESK_TICKET_URL_MAX_LENGTH, `must be at most ${HELPDESK_TICKET_URL_MAX_LENGTH} characters`)
        .optional()
        .describe("The ticket's address in its helpdesk, linked from the history"),
    },
    { error: (issue) => (issue.input === undefined ? "is required: the ticket's system and id" : "must be an object") },
  )
  .describe("The ticket the codes were found in: kept with each check, so the history can be read by ticket");
export type HelpdeskTicket = z.output<typeof HelpdeskTicketSchema>;

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
        "valid; invalid; failed: the item service could not answer (message says why); not_checked: an almost-code whose correction cannot be known (a character missing)",
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
