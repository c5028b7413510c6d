import { operations } from "@/lib/api/operations";
import { checkFailureReason } from "@/lib/api/purchases";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { checkPurchaseCode } from "@/lib/purchases/check";

export const POST = defineRoute(
  operations.validatePurchase,
  async ({ client, body, server, user, requestId, token, clientAddress }) =>
    ok(
      await checkPurchaseCode(
        {
          db: server.db,
          hashKey: server.config.dataKey,
          items: client,
          format: server.config.purchases.codeFormat,
        },
        {
          rawCode: body.purchase_code,
          user: { id: user.id, email: user.email },
          requestId,
          failureReason: checkFailureReason,
          ticket: body.ticket ?? null,
          origin: { tokenId: token?.id ?? null, clientAddress },
        },
      ),
    ),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
