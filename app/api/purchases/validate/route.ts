import { fromUpstreamError } from "@/lib/api/errors";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { checkPurchaseCode } from "@/lib/purchases/check";
import { isUpstreamError } from "@/lib/upstream";

export const POST = defineRoute(operations.validatePurchase, async ({ client, body, server, user, requestId }) =>
  ok(
    await checkPurchaseCode(
      {
        db: server.db,
        hashKey: server.config.dataKey,
        items: client,
        format: server.config.purchases.codeFormat,
      },
      { rawCode: body.purchase_code, user: { id: user.id, email: user.email }, requestId, failureReason },
    ),
  ),
);

/** Why a check failed, in the words its answer gives the person (never a URL or a key). */
function failureReason(error: unknown): string {
  if (isUpstreamError(error)) return fromUpstreamError(error, "The item API does not know this purchase.").message;
  return "Gatehouse could not finish the check because of an internal error.";
}

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
