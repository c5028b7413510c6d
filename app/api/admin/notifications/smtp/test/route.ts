import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { sendSmtpTest } from "@/lib/notifications";

export const POST = defineRoute(operations.testNotificationSmtp, async ({ server, body }) =>
  ok({ ...(await sendSmtpTest(server.db, server.config, body.to)), delivery: null }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
