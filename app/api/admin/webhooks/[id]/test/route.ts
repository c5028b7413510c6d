import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { accepted, defineRoute } from "@/lib/api/route";
import { sendTestEvent } from "@/lib/webhooks";
import { deliveryLog } from "@/lib/webhooks/deliveries";

export const POST = defineRoute(operations.testWebhook, async ({ server, params }) => {
  const id = await sendTestEvent(params.id);
  return accepted((await deliveryLog(server.db, params.id)).find((each) => each.id === id));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
