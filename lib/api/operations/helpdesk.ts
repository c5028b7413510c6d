// The purchase check beside a helpdesk ticket: a helpdesk's token sends the ticket's text and gets one verdict per
// code in it (lib/purchases/helpdesk.ts), each check kept in the history with the ticket; Help Scout's dynamic app
// asks with its own signed request instead of a token, and gets a card of HTML.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import {
  HelpdeskLookupBodySchema,
  HelpdeskLookupSchema,
  HelpScoutCardSchema,
  HelpScoutRequestSchema,
} from "@/lib/contract/helpdesk";
import { HELPDESK_MAX_CODES, HELPDESK_MAX_TEXT_LENGTH } from "@/lib/contract/values";

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
    // A ticket's text may be HELPDESK_MAX_TEXT_LENGTH characters of up to 4 bytes each, with the JSON around it.
    maxBodyBytes: 4 * HELPDESK_MAX_TEXT_LENGTH + 16 * 1024,
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
  helpScoutCard: {
    id: "helpScoutCard",
    method: "POST",
    path: "/api/helpdesk/helpscout",
    summary: `Help Scout's dynamic app: the conversation open in an agent's sidebar, signed by Help Scout (X-HelpScout-Signature: base64 of HMAC-SHA1 over the raw body, with the secret made on Admin → Helpdesk; no session or token). The codes in the conversation's subject are checked as a lookup checks them (at most ${HELPDESK_MAX_CODES}, each counted against the purchase-check limits, kept in the history with the conversation), and the answer is Help Scout's card: their verdicts, the checks made for the conversation before, and a link to the checker with the conversation attached. A missing or wrong signature, or no secret set, is a 401`,
    tag: "Helpdesk",
    permission: "public",
    area: "items",
    rawBody: true,
    query: EmptyQuerySchema,
    body: HelpScoutRequestSchema,
    success: { status: 200, description: "The card, as Help Scout takes it", schema: HelpScoutCardSchema },
    errors: ["unauthenticated", "rate_limited"],
  },
} as const satisfies Record<string, OperationSpec>;
