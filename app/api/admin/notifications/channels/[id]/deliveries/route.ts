import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { getChannel } from "@/lib/notifications/channels";
import { deliveryLog } from "@/lib/notifications/deliveries";

export const GET = defineRoute(operations.listNotificationDeliveries, async ({ server, params }) => {
  await getChannel(server.db, params.id);
  return ok(await deliveryLog(server.db, { kind: "channel", id: params.id }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
