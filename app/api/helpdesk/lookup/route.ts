import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { checkFailureReason } from "@/lib/api/purchases";
import { defineRoute, ok } from "@/lib/api/route";
import { limitPurchaseChecks } from "@/lib/api/steps/limit";
import { lookUpTicket, ticketCodes } from "@/lib/purchases/helpdesk";

export const POST = defineRoute(
  operations.helpdeskLookup,
  async ({ client, body, server, user, requestId, clientAddress, token }) => {
    const format = server.config.purchases.codeFormat;
    const found = ticketCodes(body.text, format);
    // Each code the item service will be asked about counts, so a ticket of ten codes costs ten checks.
    await limitPurchaseChecks(server, { userId: user.id, address: clientAddress, checks: found.toCheck });
    return ok(
      await lookUpTicket(
        { db: server.db, hashKey: server.config.dataKey, items: client, format },
        {
          text: body.text,
          ticket: body.ticket,
          user: { id: user.id, email: user.email },
          requestId,
          failureReason: checkFailureReason,
          origin: { tokenId: token?.id ?? null, clientAddress },
        },
        found,
      ),
    );
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
