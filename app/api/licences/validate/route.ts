import { licenceDeps, licenceReply } from "@/lib/api/licences";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { validateLicence } from "@/lib/licences/service";

export const POST = defineRoute(
  operations.validateLicence,
  async ({ client, body, server, requestId, clientAddress }) =>
    licenceReply(await validateLicence(await licenceDeps(server, client), { body, clientAddress, requestId })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
