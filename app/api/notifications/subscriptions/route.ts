import { methodsNotAllowed } from "@/lib/api/methods";
import { mySubscriptions, replaceMySubscriptions } from "@/lib/api/notifications";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";

export const GET = defineRoute(operations.mySubscriptions, async ({ server, user, caller }) =>
  ok(await mySubscriptions(server.db, user, caller)),
);

export const PUT = defineRoute(operations.setMySubscriptions, async ({ server, user, caller, body }) =>
  ok(await replaceMySubscriptions(server.db, user, caller, body.subscriptions)),
);

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "PUT"]);
