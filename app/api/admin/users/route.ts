import { userOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { created, defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { createUser, listUsers } from "@/lib/auth/users";

export const GET = defineRoute(operations.listUsers, async ({ server }) =>
  ok((await listUsers(server.db)).map(userOutput)),
);

export const POST = defineRoute(operations.createUser, async ({ server, body }) =>
  created(userOutput(await createUser(server.db, body))),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
