import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed, ok } from "@/lib/api/route";

export const POST = defineRoute(operations.validatePurchase, async ({ client, body }) =>
  ok(await client.validatePurchase(body.purchase_code)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
