import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { historyCsv } from "@/lib/api/purchases";

// The CSV of a search by full code: the code in the POST body, like the search itself.
export const POST = defineRoute(operations.exportPurchaseHistorySearch, async ({ server, body }) =>
  historyCsv(server, body),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
