// Who may do what. One table, read by route handlers (the gateway declares one Permission per route) and by
// pages that hide what a role cannot use. No `server-only` here: the UI may ask `can()` too.

export const ROLES = ["admin", "editor", "viewer", "support"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "reports:read",
  "reports:write",
  "projects:write",
  "items:read",
  "purchases:validate",
  "users:manage",
  "audit:read",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  admin: new Set(PERMISSIONS),
  editor: new Set(["reports:read", "reports:write", "projects:write", "items:read", "purchases:validate"]),
  viewer: new Set(["reports:read", "items:read"]),
  support: new Set(["items:read", "purchases:validate"]),
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
