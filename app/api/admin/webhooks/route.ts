import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { created, defineRoute, ok } from "@/lib/api/route";
import { createEndpoint, listEndpoints, webhookOutput } from "@/lib/webhooks/endpoints";
import { webhookSettings } from "@/lib/webhooks/settings";

export const GET = defineRoute(operations.listWebhooks, async ({ accounts }) =>
  ok((await listEndpoints(accounts.db)).map((endpoint) => webhookOutput(endpoint))),
);

// The secret is in this answer only; the store keeps it sealed, to sign with.
export const POST = defineRoute(operations.createWebhook, async ({ accounts, body, user }) => {
  const { endpoint, secret } = await createEndpoint(accounts.db, body, webhookSettings(accounts.config), user.id);
  return created({ ...webhookOutput(endpoint), secret });
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
