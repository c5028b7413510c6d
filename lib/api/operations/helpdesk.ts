// The purchase check beside a helpdesk ticket: a helpdesk's token sends the ticket's text and gets one verdict per
// code in it (lib/purchases/helpdesk.ts), each check kept in the history with the ticket.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import { HelpdeskLookupBodySchema, HelpdeskLookupSchema } from "@/lib/contract/helpdesk";
import { HELPDESK_MAX_CODES } from "@/lib/contract/values";

import { field, text } from "./targets";
import type { OperationSpec } from "./types";

export const helpdeskOperations = {
  helpdeskLookup: {
    id: "helpdeskLookup",
    method: "POST",
    path: "/api/helpdesk/lookup",
    summary: `Find the purchase codes in a ticket's text (codes in any case, in braces or a sentence; almost-codes — a letter O for 0, spaces for hyphens — with their slip, and checked corrected when the mend is certain) and check each distinct one, at most ${HELPDESK_MAX_CODES}. Each code counts against the purchase-check limits; an answer up to the item cache's lifetime old may be reused. Every check is kept in the history with the ticket (filter it with ticket=system:id). Codes are named by their last 4 characters, never whole`,
    tag: "Helpdesk",
    permission: "purchases:check",
    area: "items",
    query: EmptyQuerySchema,
    body: HelpdeskLookupBodySchema,
    // A long thread's text: up to HELPDESK_MAX_TEXT_LENGTH characters of up to 4 bytes, escaped in JSON.
    maxBodyBytes: 512 * 1024,
    success: {
      status: 200,
      description: "One verdict per code found, in the order they appear in the text",
      schema: dataEnvelope(HelpdeskLookupSchema),
    },
    errors: ["rate_limited"],
    audit: {
      action: "purchase.helpdesk_lookup",
      detail: ({ body, data }) => {
        const ticket = field(body, "ticket");
        const codes = field(data, "codes");
        return {
          ticket: `${text(field(ticket, "system"))}:${text(field(ticket, "id"))}`,
          codes: Array.isArray(codes) ? codes.length : 0,
        };
      },
    },
  },
} as const satisfies Record<string, OperationSpec>;
