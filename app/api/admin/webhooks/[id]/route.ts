import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, noContent, ok } from "@/lib/api/route";
import { webhookRunner } from "@/lib/webhooks";
import { deleteEndpoint, updateEndpoint, webhookOutput } from "@/lib/webhooks/endpoints";
import { webhookSettings } from "@/lib/webhooks/settings";

export const PATCH = defineRoute(operations.updateWebhook, async ({ accounts, params, body }) => {
  const { endpoint, secret } = await updateEndpoint(accounts.db, params.id, body, webhookSettings(accounts.config));
  // Enabled again: what waited while it was off goes now.
  if (body.enabled === true) (await webhookRunner()).kick();
  return ok({ ...webhookOutput(endpoint), ...(secret === null ? {} : { secret }) });
});

export const DELETE = defineRoute(operations.deleteWebhook, async ({ accounts, params }) => {
  await deleteEndpoint(accounts.db, params.id);
  return noContent();
});

export const { GET, POST, PUT, OPTIONS } = methodsNotAllowed(["PATCH", "DELETE"]);
