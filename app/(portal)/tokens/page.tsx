// /tokens: the signed-in user's API tokens (an admin's view adds every service account's): make one (its secret is
// shown once, with a ready curl line), see when and from where each was last used, revoke one. An admin also sees
// every person's tokens, and may revoke any. Each token's own limits, and the last 30 days of usage.
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { getUserById, listUsers } from "@/lib/auth/users";
import { TOKEN_SCOPES } from "@/lib/contract/values";
import { listEveryToken, listTokens, tokenOutput } from "@/lib/tokens/store";
import { tokenUsageFor } from "@/lib/tokens/usage-report";

import { FreshSwrCache } from "../fresh-swr-cache";
import { TokensView, type TokenOwner } from "./tokens-view";

export const metadata: Metadata = { title: "API tokens" };

export default async function TokensPage() {
  const current = await requirePageUser();
  const { db } = await getServerContext();
  const me = (await getUserById(db, current.id))!;
  const tokens = (await listTokens(db, me)).map(({ token, owner }) => tokenOutput(token, owner));
  const isAdmin = can(me, "users:manage");
  const serviceAccounts = isAdmin ? (await listUsers(db)).filter((user) => user.service && !user.disabled) : [];
  const everyone = isAdmin ? (await listEveryToken(db, me)).map(({ token, owner }) => tokenOutput(token, owner)) : null;
  const usage = await tokenUsageFor(db, me);
  const owners: TokenOwner[] = [me, ...serviceAccounts].map((user) => ({
    id: user.id,
    label: user.id === me.id ? `${user.email} (you)` : `${user.email} (service account)`,
    service: user.service,
    scopes: TOKEN_SCOPES.filter((scope) => can(user, scope)),
  }));
  return (
    <>
      <PageHeader
        title="API tokens"
        description="Tokens let scripts and integrations use Gatehouse's API as you, limited to the scopes you choose. Send one as Authorization: Bearer gth_…; revoke it here the moment it is no longer needed."
      />
      <FreshSwrCache>
        <TokensView initialTokens={tokens} initialEveryone={everyone} initialUsage={usage} owners={owners} />
      </FreshSwrCache>
    </>
  );
}
