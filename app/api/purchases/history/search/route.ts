import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { historyPage } from "@/lib/api/purchases";

// A full purchase code is searched in a POST body: a URL ends up in proxies' access logs and browser history.
export const POST = defineRoute(operations.searchPurchaseHistory, async ({ server, body }) =>
  historyPage(server, body),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
