import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { created, defineRoute, ok } from "@/lib/api/route";
import { createToken, listTokens, tokenOutput } from "@/lib/tokens/store";

export const GET = defineRoute(operations.listTokens, async ({ server, user }) =>
  ok((await listTokens(server.db, user)).map(({ token, owner }) => tokenOutput(token, owner))),
);

// The secret is in this answer only: the store keeps its SHA-256. Making one is a sensitive action (`stepUp`): a
// session whose last proof is older than STEP_UP_MINUTES is asked for a fresh one first (lib/api/steps/who.ts).
export const POST = defineRoute(operations.createToken, async ({ server, user, body }) => {
  const { token, owner, secret } = await createToken(server.db, user, body);
  return created({ ...tokenOutput(token, owner), secret });
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
