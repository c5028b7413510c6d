// From the provider's claims to a Gatehouse role: read the role claim (a top-level name, or a dotted path into
// nested claims such as Keycloak's realm_access.roles), map each value through OIDC_ROLE_MAP, and keep the highest
// mapped role; with none, OIDC_DEFAULT_ROLE or a refusal that names the claim read. Pure: no I/O, no server-only.
import type { RoleMapping } from "@/lib/config/oidc";

import type { Role } from "@/lib/contract/values";

/**
 * Which role wins when several are mapped. Editor includes everything support and viewer may do; support and
 * viewer are apart (purchase checks vs. reports), and support ranks above viewer because a support person's
 * work is the purchase checker.
 */
export const ROLE_RANK: Record<Role, number> = { viewer: 1, support: 2, editor: 3, admin: 4 };

export type Claims = Record<string, unknown>;

/**
 * The claim's value: the claim of that exact name when there is one (names may hold dots: Auth0's
 * "https://example.com/groups"), else the dotted path walked into nested objects. undefined when absent.
 */
export function readClaim(claims: Claims, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let value: unknown = claims;
  for (const step of path.split(".")) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, step))
      return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** The claim's values as strings: a list (its strings), a single string (one value, or space-separated ones). */
export function claimValues(value: unknown): string[] | null {
  if (typeof value === "string") return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === "string");
  return null;
}

export interface RoleRules {
  roleClaim: string;
  roleMap: readonly RoleMapping[];
  defaultRole: Role | null;
}

export type RoleDecision =
  /** `matched`: the claim values that mapped to `role` (empty when it is the default role). */
  | { ok: true; role: Role; matched: string[]; values: string[] }
  /** `claimFound`: false when the claim was absent (or not a list of names) rather than without a mapped value. */
  | { ok: false; claim: string; claimFound: boolean; values: string[] };

export function roleFromClaims(claims: Claims, rules: RoleRules): RoleDecision {
  const values = claimValues(readClaim(claims, rules.roleClaim));
  let best: Role | null = null;
  const matched: string[] = [];
  for (const value of values ?? []) {
    const mapping = rules.roleMap.find((entry) => entry.group === value);
    if (!mapping) continue;
    if (best === null || ROLE_RANK[mapping.role] > ROLE_RANK[best]) {
      best = mapping.role;
      matched.length = 0;
    }
    if (mapping.role === best) matched.push(value);
  }
  if (best) return { ok: true, role: best, matched, values: values ?? [] };
  if (rules.defaultRole) return { ok: true, role: rules.defaultRole, matched: [], values: values ?? [] };
  return { ok: false, claim: rules.roleClaim, claimFound: values !== null, values: values ?? [] };
}
