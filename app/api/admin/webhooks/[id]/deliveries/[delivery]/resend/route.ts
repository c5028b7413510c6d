import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { accepted, defineRoute } from "@/lib/api/route";
import { sendWebhookAgain } from "@/lib/webhooks";
import { deliveryLog } from "@/lib/webhooks/deliveries";

export const POST = defineRoute(operations.redeliverWebhook, async ({ server, params }) => {
  await sendWebhookAgain(params.id, params.delivery);
  const delivery = (await deliveryLog(server.db, params.id)).find((each) => each.id === params.delivery);
  return accepted(delivery);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
