import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { setRenewalUrl } from "@/lib/purchases/lifecycle-admin";

export const PUT = defineRoute(operations.setRenewalLink, async ({ server, params, body, user }) => {
  await setRenewalUrl(server.db, params.id, body.renewal_url, user.email);
  return ok({ item_id: params.id, renewal_url: body.renewal_url });
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["PUT"]);
