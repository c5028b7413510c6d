import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";

export const POST = defineRoute(operations.validatePurchase, async ({ client, body }) =>
  ok(await client.validatePurchase(body.purchase_code)),
);
