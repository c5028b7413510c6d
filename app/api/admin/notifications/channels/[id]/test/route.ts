import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { sendChannelTest } from "@/lib/notifications";
import { deliveryLog } from "@/lib/notifications/deliveries";

export const POST = defineRoute(operations.testNotificationChannel, async ({ server, params }) => {
  const { sent, error, deliveryId } = await sendChannelTest(server.db, params.id);
  const delivery = (await deliveryLog(server.db, { kind: "channel", id: params.id })).find((d) => d.id === deliveryId);
  return ok({ sent, error, delivery: delivery ?? null });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
