// Who may do what. One table, read by route handlers (the gateway declares one Permission per route) and by
// pages that hide what a role cannot use. No `server-only` here: the UI may ask `can()` too. The roles and
// permissions themselves are values of the contract (lib/contract/values.ts).
import { isOneOf, PERMISSIONS, ROLES, type Permission, type Role } from "@/lib/contract/values";

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  admin: new Set(PERMISSIONS),
  editor: new Set(["reports:read", "reports:write", "projects:write", "items:read", "finances:read", "purchases:validate"]),
  viewer: new Set(["reports:read", "items:read", "finances:read"]),
  support: new Set(["items:read", "purchases:validate"]),
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

export function isRole(value: unknown): value is Role {
  return isOneOf(ROLES, value);
}
