import { methodsNotAllowed } from "@/lib/api/methods";
import { channelSubscriptions, replaceChannelSubscriptions } from "@/lib/api/notifications";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";

export const GET = defineRoute(operations.channelSubscriptions, async ({ server, params }) =>
  ok(await channelSubscriptions(server.db, params.id)),
);

export const PUT = defineRoute(operations.setChannelSubscriptions, async ({ server, params, body }) =>
  ok(await replaceChannelSubscriptions(server.db, params.id, body.subscriptions)),
);

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "PUT"]);
