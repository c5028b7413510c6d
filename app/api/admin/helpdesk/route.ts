import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { portalOrigin } from "@/lib/auth/request";
import { helpdeskSettings } from "@/lib/purchases/helpscout";

export const GET = defineRoute(operations.getHelpdeskSettings, async ({ server, request }) =>
  ok(await helpdeskSettings(server.db, portalOrigin(request.headers, server.config.edge) ?? "")),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
