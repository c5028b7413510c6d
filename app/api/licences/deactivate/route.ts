import { licenceDeps, licenceReply } from "@/lib/api/licences";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { deactivateLicence } from "@/lib/licences/service";

export const POST = defineRoute(
  operations.deactivateLicence,
  async ({ client, body, server, requestId, clientAddress }) =>
    licenceReply(await deactivateLicence(await licenceDeps(server, client), { body, clientAddress, requestId })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
