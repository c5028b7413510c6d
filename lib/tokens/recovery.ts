// Recovering an account reaches its API tokens: an admin's password reset or disabling of a person revokes every
// token of his, unless the admin said not to (`revoke_tokens: false` on the users page and API, `--keep-tokens` at
// the users CLI). Revoked tokens stay revoked, so enabling the person again revives none. One home for the rule and
// its audit rows (one per token), for the API and the CLI alike.
import "server-only";

import type { AuditEntry } from "@/lib/auth/audit";
import type { User } from "@/lib/auth/users";
import type { Db } from "@/lib/db";

import { revokeTokensOf } from "./store";

/** The part of a user change that decides: a new password, disabling, and the admin's choice. */
export interface RecoveryChange {
  password?: unknown;
  disabled?: boolean;
  revoke_tokens?: boolean;
}

export function revokesTokens(change: RecoveryChange): boolean {
  return (change.password !== undefined || change.disabled === true) && change.revoke_tokens !== false;
}

/**
 * Revokes `owner`'s active tokens when `change` calls for it, writing one `token.revoke` row each through `audit`
 * (the API's request-bound writer, or the CLI's). `actor` null: an operator at the CLI. Returns how many it revoked.
 */
export async function revokeTokensOnRecovery(
  db: Db,
  owner: Pick<User, "id" | "email">,
  change: RecoveryChange,
  actor: User | null,
  audit: (entry: Pick<AuditEntry, "action" | "target" | "outcome" | "detail">) => Promise<void>,
): Promise<number> {
  if (!revokesTokens(change)) return 0;
  const reason = change.password !== undefined ? "password_reset" : "user_disabled";
  const revoked = await revokeTokensOf(db, owner.id, actor);
  for (const token of revoked) {
    await audit({
      action: "token.revoke",
      target: { type: "token", id: token.id, label: token.name },
      outcome: "success",
      detail: { reason, owner: owner.email },
    });
  }
  return revoked.length;
}
