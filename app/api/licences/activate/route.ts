import { licenceDeps, licenceReply } from "@/lib/api/licences";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { activateLicence } from "@/lib/licences/service";

export const POST = defineRoute(
  operations.activateLicence,
  async ({ client, body, server, requestId, clientAddress }) =>
    licenceReply(await activateLicence(await licenceDeps(server, client), { body, clientAddress, requestId })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
