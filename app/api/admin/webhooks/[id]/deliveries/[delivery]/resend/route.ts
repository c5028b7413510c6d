import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { accepted, defineRoute } from "@/lib/api/route";
import { webhookRunner } from "@/lib/webhooks";
import { deliveryLog, redeliver } from "@/lib/webhooks/deliveries";

export const POST = defineRoute(operations.redeliverWebhook, async ({ server, params }) => {
  await redeliver(server.db, params.id, params.delivery);
  (await webhookRunner()).kick();
  const delivery = (await deliveryLog(server.db, params.id)).find((each) => each.id === params.delivery);
  return accepted(delivery);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
