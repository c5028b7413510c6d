import { userOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { created, defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { createUser, listUsers } from "@/lib/auth/users";

export const GET = defineRoute(operations.listUsers, async ({ accounts }) =>
  ok((await listUsers(accounts.db)).map(userOutput)),
);

export const POST = defineRoute(operations.createUser, async ({ accounts, body }) =>
  created(userOutput(await createUser(accounts.db, body))),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
