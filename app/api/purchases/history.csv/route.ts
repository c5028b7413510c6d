import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";
import { historyCsv } from "@/lib/api/purchases";

export const GET = defineRoute(operations.exportPurchaseHistory, async ({ accounts, query }) => historyCsv(accounts, query));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
