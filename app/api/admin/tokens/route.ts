import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { listEveryToken, tokenOutput } from "@/lib/tokens/store";

// Every person's tokens, for an admin: recovering an account includes seeing and revoking what acts for it.
export const GET = defineRoute(operations.listEveryToken, async ({ server, user, query }) =>
  ok((await listEveryToken(server.db, user, query.user_id)).map(({ token, owner }) => tokenOutput(token, owner))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
