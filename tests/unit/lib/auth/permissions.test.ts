import { describe, expect, it } from "vitest";

import { can, isRole } from "@/lib/auth/permissions";
import { PERMISSIONS, ROLES, type Permission, type Role } from "@/lib/contract/values";

// The table, row by row, in the permission names the routes declare.
const TABLE: Record<Permission, Role[]> = {
  "reports:read": ["admin", "editor", "viewer"], // read reports and projects
  "reports:write": ["admin", "editor"], // create, update, delete reports
  "projects:write": ["admin", "editor"], // delete projects
  "items:read": ["admin", "editor", "viewer", "support"], // read account and items
  "finances:read": ["admin", "editor", "viewer"], // the seller's balance: support answers buyers, not the books
  "purchases:validate": ["admin", "editor", "support"],
  "users:manage": ["admin"],
  "audit:read": ["admin"],
  "webhooks:manage": ["admin"], // webhook endpoints and their deliveries (issue 19)
  "upstream:manage": ["admin"],
};

describe("roles and permissions", () => {
  for (const permission of PERMISSIONS) {
    for (const role of ROLES) {
      const allowed = TABLE[permission].includes(role);
      it(`${role} ${allowed ? "may" : "may not"} ${permission}`, () => {
        expect(can(role, permission)).toBe(allowed);
      });
    }
  }

  it("knows exactly the four roles", () => {
    expect(ROLES).toEqual(["admin", "editor", "viewer", "support"]);
    expect(isRole("editor")).toBe(true);
    expect(isRole("owner")).toBe(false);
    expect(isRole(undefined)).toBe(false);
  });
});
