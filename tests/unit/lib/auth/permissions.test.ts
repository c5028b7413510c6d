import { describe, expect, it } from "vitest";

import { can, isRole, withoutGuardedFields } from "@/lib/auth/permissions";
import { PERMISSIONS, ROLES, TOKEN_SCOPES, type Permission, type Role } from "@/lib/contract/values";

// The table, row by row, in the permission names the routes declare.
const TABLE: Record<Permission, Role[]> = {
  "reports:read": ["admin", "editor", "viewer"], // read reports and projects
  "reports:write": ["admin", "editor"], // create, update, delete reports
  "projects:write": ["admin", "editor"], // delete projects
  "items:read": ["admin", "editor", "viewer", "support"], // read account and items
  "finances:read": ["admin", "editor", "viewer"], // the seller's balance: support answers buyers, not the books
  "purchases:validate": ["admin", "editor", "support"],
  "purchases:check": ["admin", "editor", "support"], // a helpdesk's lookup: checks only (issue 32)
  "users:manage": ["admin"],
  "audit:read": ["admin"],
  "webhooks:manage": ["admin"], // webhook endpoints and their deliveries (issue 19)
  "upstream:manage": ["admin"],
  "purchases:manage": ["admin"], // the purchase lifecycle's settings and renewal links (issue 33)
  "licences:manage": ["admin"], // licence policies and the signing key (issue 34)
};

describe("roles and permissions", () => {
  for (const permission of PERMISSIONS) {
    for (const role of ROLES) {
      const allowed = TABLE[permission].includes(role);
      it(`${role} ${allowed ? "may" : "may not"} ${permission}`, () => {
        expect(can({ role }, permission)).toBe(allowed);
      });
    }
  }

  it("allows a token only what both its owner's role and its scopes allow", () => {
    expect(can({ role: "viewer", scopes: ["items:read", "finances:read"] }, "finances:read")).toBe(true);
    expect(can({ role: "viewer", scopes: ["items:read"] }, "finances:read")).toBe(false);
    expect(can({ role: "support", scopes: ["items:read", "finances:read"] }, "finances:read")).toBe(false);
    expect(can({ role: "admin", scopes: [] }, "items:read")).toBe(false);
    // A session (no scopes) is its role.
    expect(can({ role: "admin", scopes: null }, "users:manage")).toBe(true);
  });

  it("lets a token be given the seller's finances, and never user, webhook or key management", () => {
    expect(TOKEN_SCOPES).toContain("finances:read");
    for (const permission of [
      "users:manage",
      "webhooks:manage",
      "upstream:manage",
      "purchases:manage",
      "licences:manage",
    ] as const)
      expect(TOKEN_SCOPES).not.toContain(permission);
  });

  it("removes the guarded fields a caller may not see, and only those", () => {
    const account = { username: "seller", balance: 12.5, currency: "USD" };
    const guarded = { balance: "finances:read", currency: "finances:read" } as const;
    expect(withoutGuardedFields({ role: "viewer" }, guarded, account)).toEqual(account);
    expect(withoutGuardedFields({ role: "support" }, guarded, account)).toEqual({ username: "seller" });
    expect(withoutGuardedFields({ role: "admin", scopes: ["items:read"] }, guarded, account)).toEqual({
      username: "seller",
    });
  });

  it("knows exactly the four roles", () => {
    expect(ROLES).toEqual(["admin", "editor", "viewer", "support"]);
    expect(isRole("editor")).toBe(true);
    expect(isRole("owner")).toBe(false);
    expect(isRole(undefined)).toBe(false);
  });
});
