import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

// The balance and currency go only to a caller with finances:read (operations.showAccount.guardedFields).
export const GET = defineRoute(operations.showAccount, async ({ client }) => ok(await client.getAccount()));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
