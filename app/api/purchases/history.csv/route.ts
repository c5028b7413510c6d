import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { historyCsv } from "@/lib/api/purchases";

export const GET = defineRoute(operations.exportPurchaseHistory, async ({ server, query }) =>
  historyCsv(server, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
