import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";
import { historyPage } from "@/lib/api/purchases";

export const GET = defineRoute(operations.listPurchaseHistory, async ({ accounts, query }) => historyPage(accounts, query));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
