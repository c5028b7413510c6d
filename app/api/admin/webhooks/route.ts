import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { created, defineRoute, ok } from "@/lib/api/route";
import { createEndpoint, listEndpoints, webhookOutput } from "@/lib/webhooks/endpoints";
import { webhookSettings } from "@/lib/webhooks/settings";

export const GET = defineRoute(operations.listWebhooks, async ({ server }) =>
  ok((await listEndpoints(server.db)).map((endpoint) => webhookOutput(endpoint))),
);

// The secret is in this answer only; the store keeps it sealed, to sign with.
export const POST = defineRoute(operations.createWebhook, async ({ server, body, user }) => {
  const { endpoint, secret } = await createEndpoint(server.db, body, webhookSettings(server.config), user.id);
  return created({ ...webhookOutput(endpoint), secret });
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
