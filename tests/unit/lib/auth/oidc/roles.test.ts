// The role a single sign-on gives (lib/auth/oidc/roles.ts): the role claim read by name or dotted path, mapped
// through OIDC_ROLE_MAP, the highest role winning; the default role, or a refusal naming the claim.
import { describe, expect, it } from "vitest";

import { claimValues, readClaim, roleFromClaims, type RoleRules } from "@/lib/auth/oidc/roles";

const rules = (over: Partial<RoleRules> = {}): RoleRules => ({
  roleClaim: "groups",
  roleMap: [
    { group: "staff", role: "viewer" },
    { group: "support-desk", role: "support" },
    { group: "portal-editors", role: "editor" },
    { group: "portal-admins", role: "admin" },
  ],
  defaultRole: null,
  ...over,
});

describe("roleFromClaims", () => {
  it("gives the highest mapped role, whatever the order of the groups", () => {
    expect(roleFromClaims({ groups: ["staff", "portal-admins", "portal-editors"] }, rules())).toEqual({
      ok: true,
      role: "admin",
      matched: ["portal-admins"],
      values: ["staff", "portal-admins", "portal-editors"],
    });
    expect(roleFromClaims({ groups: ["portal-editors", "staff"] }, rules())).toMatchObject({
      ok: true,
      role: "editor",
    });
  });

  it("ranks support above viewer, editor above both", () => {
    expect(roleFromClaims({ groups: ["staff", "support-desk"] }, rules())).toMatchObject({ role: "support" });
    expect(roleFromClaims({ groups: ["support-desk", "portal-editors"] }, rules())).toMatchObject({ role: "editor" });
  });

  it("ignores groups it does not map, and values that are not names", () => {
    expect(
      roleFromClaims({ groups: ["contractors", 42, null, { name: "portal-admins" }, "staff"] }, rules()),
    ).toMatchObject({ ok: true, role: "viewer", matched: ["staff"] });
  });

  it("reads a nested claim by its dotted path (Keycloak's realm_access.roles)", () => {
    const claims = { realm_access: { roles: ["offline_access", "portal-editors"] }, groups: ["portal-admins"] };
    expect(roleFromClaims(claims, rules({ roleClaim: "realm_access.roles" }))).toMatchObject({
      ok: true,
      role: "editor",
    });
    expect(
      roleFromClaims(
        { resource_access: { gatehouse: { roles: ["portal-admins"] } } },
        rules({ roleClaim: "resource_access.gatehouse.roles" }),
      ),
    ).toMatchObject({ role: "admin" });
  });

  it("prefers a claim whose name holds the dots (Auth0's namespaced claims)", () => {
    const claims = { "https://example.com/groups": ["portal-admins"], https: { "//example": { com: ["staff"] } } };
    expect(roleFromClaims(claims, rules({ roleClaim: "https://example.com/groups" }))).toMatchObject({ role: "admin" });
  });

  it("takes a single string as one value, or several separated by spaces", () => {
    expect(roleFromClaims({ role: "portal-editors" }, rules({ roleClaim: "role" }))).toMatchObject({ role: "editor" });
    expect(roleFromClaims({ roles: "staff portal-admins" }, rules({ roleClaim: "roles" }))).toMatchObject({
      role: "admin",
    });
  });

  it("refuses when no group maps, naming the claim and what it read", () => {
    expect(roleFromClaims({ groups: ["contractors"] }, rules())).toEqual({
      ok: false,
      claim: "groups",
      claimFound: true,
      values: ["contractors"],
    });
  });

  it("refuses when the claim is missing, or is not a list of names, and says it was missing", () => {
    expect(roleFromClaims({ sub: "x" }, rules())).toEqual({
      ok: false,
      claim: "groups",
      claimFound: false,
      values: [],
    });
    expect(roleFromClaims({ groups: { admins: true } }, rules())).toMatchObject({ ok: false, claimFound: false });
    expect(roleFromClaims({ realm_access: "portal-admins" }, rules({ roleClaim: "realm_access.roles" }))).toMatchObject(
      { ok: false, claimFound: false },
    );
  });

  it("gives the default role to someone in no mapped group, or without the claim", () => {
    expect(roleFromClaims({ groups: ["contractors"] }, rules({ defaultRole: "viewer" }))).toEqual({
      ok: true,
      role: "viewer",
      matched: [],
      values: ["contractors"],
    });
    expect(roleFromClaims({}, rules({ defaultRole: "support" }))).toMatchObject({ ok: true, role: "support" });
    // A mapped group still beats the default.
    expect(roleFromClaims({ groups: ["portal-editors"] }, rules({ defaultRole: "viewer" }))).toMatchObject({
      role: "editor",
    });
  });

  it("matches values exactly: Keycloak's full group path is another value", () => {
    expect(roleFromClaims({ groups: ["/portal-admins", "Portal-Admins"] }, rules())).toMatchObject({ ok: false });
    expect(
      roleFromClaims({ groups: ["/portal-admins"] }, rules({ roleMap: [{ group: "/portal-admins", role: "admin" }] })),
    ).toMatchObject({ role: "admin" });
  });
});

describe("readClaim and claimValues", () => {
  it("never walks into inherited properties", () => {
    expect(readClaim({}, "constructor.name")).toBeUndefined();
    expect(readClaim({ groups: [] }, "groups.length")).toBeUndefined();
  });

  it("tells a missing claim from an empty one", () => {
    expect(claimValues(undefined)).toBeNull();
    expect(claimValues([])).toEqual([]);
    expect(claimValues(7)).toBeNull();
  });
});
