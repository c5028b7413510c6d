import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { deliveryLog } from "@/lib/webhooks/deliveries";
import { getEndpoint } from "@/lib/webhooks/endpoints";

export const GET = defineRoute(operations.listWebhookDeliveries, async ({ server, params }) => {
  await getEndpoint(server.db, params.id);
  return ok(await deliveryLog(server.db, params.id));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
