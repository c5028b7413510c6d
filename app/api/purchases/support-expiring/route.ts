import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { supportExpiring } from "@/lib/purchases/lifecycle-admin";

export const GET = defineRoute(operations.listSupportExpiring, async ({ server, query }) => ({
  status: 200,
  json: await supportExpiring(server.db, query),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
