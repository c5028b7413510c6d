// Who may do what. One table, and one check (`can`) that every permission decision goes through: the gateway's
// permission step, the fields an answer shows only to some, pages and the cards and links they show. No
// `server-only` here: the UI may ask `can()` too. The roles and permissions themselves are values of the contract
// (lib/contract/values.ts).
import { isOneOf, PERMISSIONS, ROLES, type Permission, type Role } from "@/lib/contract/values";

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  admin: new Set(PERMISSIONS),
  editor: new Set([
    "reports:read",
    "reports:write",
    "projects:write",
    "items:read",
    "finances:read",
    "purchases:validate",
    "purchases:check",
  ]),
  viewer: new Set(["reports:read", "items:read", "finances:read"]),
  support: new Set(["items:read", "purchases:validate", "purchases:check"]),
};

/**
 * Who asks. A signed-in person (a `User` as it is): his role decides. An API token: its owner's role and its
 * scopes both must allow — so a caller built from a token request must carry the token's scopes.
 */
export interface Caller {
  role: Role;
  /** An API token's scopes; absent or null for a session. */
  scopes?: readonly string[] | null;
}

export function can(caller: Caller, permission: Permission): boolean {
  return GRANTS[caller.role].has(permission) && (caller.scopes == null || caller.scopes.includes(permission));
}

/** Fields an answer shows only to a caller with a permission: field name → the permission it needs. */
export type GuardedFields = Readonly<Record<string, Permission>>;

/** `data` without the fields the caller may not see. */
export function withoutGuardedFields<T extends object>(caller: Caller, guarded: GuardedFields, data: T): T {
  const hidden = new Set(Object.keys(guarded).filter((field) => !can(caller, guarded[field]!)));
  if (hidden.size === 0) return data;
  return Object.fromEntries(Object.entries(data).filter(([field]) => !hidden.has(field))) as T;
}

export function isRole(value: unknown): value is Role {
  return isOneOf(ROLES, value);
}
