import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { requireRecentSignIn } from "@/lib/api/recent-sign-in";
import { created, defineRoute, ok } from "@/lib/api/route";
import { createToken, listTokens, tokenOutput } from "@/lib/tokens/store";

export const GET = defineRoute(operations.listTokens, async ({ server, user }) =>
  ok((await listTokens(server.db, user)).map(({ token, owner }) => tokenOutput(token, owner))),
);

// The secret is in this answer only: the store keeps its SHA-256. A session older than a few minutes must prove
// it is still its person first (lib/api/recent-sign-in.ts).
export const POST = defineRoute(operations.createToken, async ({ server, user, session, body, clientAddress }) => {
  await requireRecentSignIn({ server, user, session: session!, password: body.password, clientAddress });
  const { token, owner, secret } = await createToken(server.db, user, body);
  return created({ ...tokenOutput(token, owner), secret });
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
