import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { historyPage } from "@/lib/api/purchases";

export const GET = defineRoute(operations.listPurchaseHistory, async ({ server, query }) => historyPage(server, query));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
