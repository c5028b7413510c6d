// /admin/users: every portal user, adding one, and changing a user's name, role, password or access. The first
// view is read from the store here, in the API's shapes (lib/api/accounts.ts); changes go through the admin API.
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { userOutput } from "@/lib/api/accounts";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { readSecondFactorPolicy } from "@/lib/auth/factors/policy";
import { listUsers } from "@/lib/auth/users";
import { getSignInSettings } from "@/lib/config/oidc";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { SignInPolicyForm } from "./sign-in-policy-form";
import { UsersView } from "./users-view";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const me = await requirePageUser("users:manage");
  const { db } = await getServerContext();
  const [users, policy] = await Promise.all([
    listUsers(db).then((all) => all.map(userOutput)),
    readSecondFactorPolicy(db),
  ]);
  const { oidc } = getSignInSettings();
  return (
    <>
      <PageHeader
        title="Users"
        description={
          oidc
            ? `Who may sign in to Gatehouse, and with which role. People who sign in with ${oidc.label} are added at their first sign-in, with the role their groups give; add here only accounts that sign in with a password. A change of role or password, or disabling, signs the user out at once.`
            : "Who may sign in to Gatehouse, and with which role. A change of role or password, or disabling, signs the user out at once."
        }
      />
      {/* Above the list: the list's rows settle as it hydrates, and would shift a card below them. */}
      <SignInPolicyForm initialPolicy={policy} />
      <FreshSwrCache>
        <UsersView
          initialUsers={users}
          currentUserId={me.id}
          provider={oidc ? { issuer: oidc.issuer, label: oidc.label } : null}
        />
      </FreshSwrCache>
    </>
  );
}
