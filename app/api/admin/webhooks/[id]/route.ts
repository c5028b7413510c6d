import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, noContent, ok } from "@/lib/api/route";
import { queueWebhookDeliveries } from "@/lib/webhooks";
import { deleteEndpoint, updateEndpoint, webhookOutput } from "@/lib/webhooks/endpoints";
import { webhookSettings } from "@/lib/webhooks/settings";

export const PATCH = defineRoute(operations.updateWebhook, async ({ server, params, body }) => {
  const { endpoint, secret } = await updateEndpoint(server.db, params.id, body, webhookSettings(server.config));
  // Enabled again: what waited while it was off goes now.
  if (body.enabled === true) await queueWebhookDeliveries(params.id);
  return ok({ ...webhookOutput(endpoint), ...(secret === null ? {} : { secret }) });
});

export const DELETE = defineRoute(operations.deleteWebhook, async ({ server, params }) => {
  await deleteEndpoint(server.db, params.id);
  return noContent();
});

export const { GET, POST, PUT, OPTIONS } = methodsNotAllowed(["PATCH", "DELETE"]);
