import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { historyCsv } from "@/lib/api/purchases";

export const GET = defineRoute(operations.exportPurchaseHistory, async ({ accounts, query }) =>
  historyCsv(accounts, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
