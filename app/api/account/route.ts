import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { accountFor } from "@/lib/api/accounts";

export const GET = defineRoute(operations.showAccount, async ({ client, user }) => ok(accountFor(user.role, await client.getAccount())));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
