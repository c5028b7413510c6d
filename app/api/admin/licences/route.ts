import { licencesAdminState } from "@/lib/api/licence-staff";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { portalOrigin } from "@/lib/auth/request";

export const GET = defineRoute(operations.getLicencesAdmin, async ({ server, client, request }) =>
  ok(await licencesAdminState(server, client, portalOrigin(request.headers, server.config.edge))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
