// Accounts as the API shows them: users, the current session and audit rows in the contract's snake_case
// shapes (lib/contract). The password hash never reaches these functions.
import "server-only";

import { listAudit, type AuditFilter } from "@/lib/auth/audit";
import { auditRecordOutput } from "@/lib/auth/audit-text";
import { PERMISSIONS } from "@/lib/contract/values";
import { can, withoutGuardedFields, type Caller } from "@/lib/auth/permissions";
import { sessionExpiresAt, type SessionData, type SessionTimeouts } from "@/lib/auth/session";
import type { User } from "@/lib/auth/users";

import type { AuditRecordOutput } from "@/lib/contract/audit";
import { pageMeta, type Page } from "@/lib/contract/common";
import { DEFAULT_PER_PAGE } from "@/lib/contract/values";
import type { Db } from "@/lib/db";

import { operations } from "./operations";
import type { CurrentSession, UserOutput } from "@/lib/contract/accounts";

export function userOutput(user: User): UserOutput {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    disabled: user.disabled,
    service: user.service,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    identity: user.identity,
    role_pinned: user.rolePinned,
    last_sign_in_at: user.lastSignInAt,
  };
}

export function currentSessionOutput(user: User, session: SessionData, timeouts: SessionTimeouts): CurrentSession {
  return {
    user: { id: user.id, email: user.email, name: user.name, role: user.role, time_zone: user.timeZone },
    permissions: PERMISSIONS.filter((permission) => can(user, permission)),
    expires_at: sessionExpiresAt(session, timeouts).toISOString(),
    via: "session",
  };
}

/** The same for a request with an API token: what the role and the token's scopes both allow, and when it expires. */
export function currentTokenOutput(
  user: User,
  token: { scopes: readonly string[]; expiresAt: string | null },
): CurrentSession {
  return {
    user: { id: user.id, email: user.email, name: user.name, role: user.role, time_zone: user.timeZone },
    permissions: PERMISSIONS.filter((permission) => can({ role: user.role, scopes: token.scopes }, permission)),
    expires_at: token.expiresAt,
    via: "api_token",
  };
}

export { auditRecordOutput };

/** One page of the audit log as GET /api/admin/audit answers it (and the audit page renders first). */
export async function auditLogPage(
  db: Db,
  {
    page = 1,
    per_page: perPage = DEFAULT_PER_PAGE.audit,
    ...filters
  }: Omit<AuditFilter, "page" | "perPage"> & { page?: number; per_page?: number },
): Promise<Page<AuditRecordOutput>> {
  const { rows, total } = await listAudit(db, { ...filters, page, perPage });
  return { data: rows.map(auditRecordOutput), meta: pageMeta(page, perPage, total) };
}

/** The seller account as the caller may see it: the page shows what GET /api/account answers (its guarded fields). */
export function accountFor<A extends object>(caller: Caller, account: A): A {
  return withoutGuardedFields(caller, operations.showAccount.guardedFields, account);
}
