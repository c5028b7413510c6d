// Help Scout's dynamic app: its signed request is the credential (no session, no token). The signature is checked
// over the body's bytes before anything reads them; then the codes of the conversation's subject are checked as a
// lookup checks them, and the card answers with them, the checks made for the conversation before, and a link to
// the checker with the conversation attached.
import { ApiError } from "@/lib/api/errors";
import { activationsOfCode, codeHashes } from "@/lib/api/licence-staff";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { checkFailureReason } from "@/lib/api/purchases";
import { defineRoute, type Reply } from "@/lib/api/route";
import { limitPurchaseChecks } from "@/lib/api/steps/limit";
import { portalOrigin } from "@/lib/auth/request";
import { helpScoutConversationUrl, ticketFilter } from "@/lib/contract/values";
import type { ServerContext } from "@/lib/auth/access";
import { lookUpTicket, ticketCodes, type TicketCodes } from "@/lib/purchases/helpdesk";
import { listPurchaseHistory } from "@/lib/purchases/history";
import { HELPSCOUT_SIGNATURE_HEADER, helpScoutSecret, helpScoutSignatureMatches } from "@/lib/purchases/helpscout";
import { helpScoutCardHtml, type CardActivation } from "@/lib/purchases/helpscout-card";
import type { HelpdeskLookup } from "@/lib/contract/helpdesk";

/** The purchase-check limits count Help Scout's requests as this one caller (it has no Gatehouse user). */
const HELPSCOUT_CALLER = "helpdesk:helpscout";
/** Checks made for the conversation before, on the card. */
const EARLIER_CHECKS = 5;

const card = (html: string): Reply => ({ status: 200, json: { html } });

export const POST = defineRoute(
  operations.helpScoutCard,
  async ({ client, server, request, rawBody, readBody, requestId, clientAddress, audit }) => {
    const secret = await helpScoutSecret(server.db, server.config.dataKey);
    if (secret === null) {
      throw new ApiError(
        "unauthenticated",
        "Help Scout's secret is not set in Gatehouse: an admin makes it on Admin → Helpdesk and pastes it into Help Scout's app.",
      );
    }
    if (!helpScoutSignatureMatches(rawBody, request.headers.get(HELPSCOUT_SIGNATURE_HEADER), secret)) {
      throw new ApiError(
        "unauthenticated",
        "The request's X-HelpScout-Signature is missing or does not match its body: the secret in Help Scout's app must be the one made on Admin → Helpdesk (a rotation replaces it).",
      );
    }
    const body = readBody();
    if (body.ticket === false) return card(helpScoutCardHtml({ lookup: null, earlier: [], checkerUrl: null }));

    const id = String(body.ticket.id);
    const ticket = { system: "helpscout", id, url: helpScoutConversationUrl(id) } as const;
    const origin = portalOrigin(request.headers, server.config.edge);
    const checkerUrl = origin ? `${origin}/purchases?ticket=${encodeURIComponent(ticketFilter(ticket))}` : null;
    // Read before this request's checks are kept: "before" means before this card.
    const earlier = await listPurchaseHistory(server.db, server.config.dataKey, {
      ticket: ticketFilter(ticket),
      page: 1,
      perPage: EARLIER_CHECKS,
    });

    const format = server.config.purchases.codeFormat;
    const subject = body.ticket.subject ?? "";
    const found = ticketCodes(subject, format);
    // Each code the item service will be asked about counts, so a subject of ten codes costs ten checks.
    await limitPurchaseChecks(server, { userId: HELPSCOUT_CALLER, address: clientAddress, checks: found.toCheck });
    // No Gatehouse user asked: the agent's email, when Help Scout sends it, says who was looking.
    const agent = { id: null, email: body.user?.email?.trim() || null };
    const lookup = await lookUpTicket(
      { db: server.db, hashKey: server.config.dataKey, items: client, format },
      { text: subject, ticket, user: agent, requestId, failureReason: checkFailureReason },
      found,
    );
    if (lookup.codes.length > 0) {
      await audit({
        userId: null,
        userEmail: agent.email,
        action: "purchase.helpdesk_lookup",
        target: null,
        outcome: "success",
        detail: { ticket: ticketFilter(ticket), codes: lookup.codes.length, via: "helpscout" },
      });
    }
    const activations = await activeActivations(server, lookup, found);
    return card(helpScoutCardHtml({ lookup, earlier: earlier.rows, checkerUrl, activations }));
  },
);

/** Each valid code's active licence activations, by its verdict's index (the verdicts follow the codes found). */
function activeActivations(
  server: ServerContext,
  lookup: HelpdeskLookup,
  found: TicketCodes,
): Promise<Array<CardActivation[] | null>> {
  return Promise.all(
    lookup.codes.map(async (verdict, index) => {
      const ticketCode = found.codes[index];
      const code = ticketCode?.kind === "code" ? ticketCode.code : (ticketCode?.slip.code ?? null);
      if (verdict.outcome !== "valid" || code === null) return null;
      const activations = await activationsOfCode(server, codeHashes(server, code));
      return activations
        .filter((activation) => activation.status === "active")
        .map((activation) => ({ instance: activation.instance.value, last_seen_at: activation.last_seen_at }));
    }),
  );
}

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
