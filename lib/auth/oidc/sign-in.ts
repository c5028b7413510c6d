// From what the provider vouched for (validated claims) to a Gatehouse user, at sign-in and at each re-check.
// Users are matched by the provider's (issuer, sub) — never by email: an existing account with the same email is
// not taken over, the sign-in is refused with a sentence. The role comes from the role claim at every sign-in and
// re-check, unless an admin pinned it. A user whom the groups no longer give a role loses every single sign-on
// session: each ends at its next request, and a page then goes through the provider (which shows why).
import "server-only";

import type { OidcSettings } from "@/lib/config/oidc";
import type { Db } from "@/lib/db";

import { emailSchema } from "@/lib/contract/accounts";
import type { Role } from "@/lib/contract/values";
import { createSsoUser, getUserByIdentity, updateFromProvider } from "../sso-users";
import { isAccountError, type User } from "../users";

import type { SsoFailure } from "./provider";
import { roleFromClaims, type Claims } from "./roles";
import { endUserSsoSessionsForNoRole, type NoRole } from "./sessions";

export type SsoRefusalFailure = Extract<
  SsoFailure,
  "sso_no_role" | "sso_email_taken" | "sso_email_missing" | "sso_disabled"
>;

export interface SsoRefusal {
  failure: SsoRefusalFailure;
  /** The Gatehouse user concerned, when there is one. */
  user: User | null;
  email: string | null;
  /** For the audit row (auth.sso_refused) and the log line: reason, claim, what was read. */
  detail: Record<string, string | number | boolean | null | string[]>;
}

export type SsoSignIn =
  | { ok: true; user: User; created: boolean; roleChange: { from: Role; to: Role } | null }
  | { ok: false; refusal: SsoRefusal };

const NAME_MAX = 100;

/** The email the provider vouches for: `email`, else a user name that is one (Entra's preferred_username, the UPN). */
export function emailFromClaims(claims: Claims): string | null {
  for (const candidate of [claims.email, claims.preferred_username, claims.upn]) {
    if (typeof candidate !== "string") continue;
    const parsed = emailSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
}

/** The name to show: `name`, given and family names, else the email's local part. */
export function nameFromClaims(claims: Claims, email: string): string {
  const given = typeof claims.given_name === "string" ? claims.given_name : "";
  const family = typeof claims.family_name === "string" ? claims.family_name : "";
  const candidates = [
    typeof claims.name === "string" ? claims.name : "",
    `${given} ${family}`,
    email.split("@")[0] ?? email,
  ];
  // Control characters never belong in a name shown in a table.
  const name =
    candidates
      .map((c) =>
        c
          .replace(/\p{Cc}/gu, " ")
          .replace(/\s+/g, " ")
          .trim(),
      )
      .find((c) => c !== "") ?? email;
  return Array.from(name).slice(0, NAME_MAX).join("");
}

/** The values a refusal's detail keeps of the role claim: enough to see what was read, never a flood. */
const shown = (values: string[]) => values.slice(0, 20).map((value) => value.slice(0, 100));

/**
 * A sign-in with validated claims: the user matched by (issuer, sub), created at his first sign-in, his email, name
 * and (unless pinned) role brought up to date — or a refusal that says why.
 */
export async function signInWithClaims(
  db: Db,
  settings: OidcSettings,
  claims: Claims,
  now: Date = new Date(),
): Promise<SsoSignIn> {
  const subject = String(claims.sub);
  const existing = await getUserByIdentity(db, settings.issuer, subject);
  const decision = roleFromClaims(claims, settings);
  const email = emailFromClaims(claims);
  const base = { provider: settings.label, phase: "sign_in", subject };

  if (existing?.disabled) {
    return {
      ok: false,
      refusal: {
        failure: "sso_disabled",
        user: existing,
        email: existing.email,
        detail: { ...base, reason: "disabled" },
      },
    };
  }
  if (!decision.ok && !existing?.rolePinned) {
    // The provider says he is no one Gatehouse gives a role: his other sessions end too.
    const detail = {
      ...base,
      reason: "no_role",
      claim: decision.claim,
      claim_found: decision.claimFound,
      values: shown(decision.values),
    };
    if (existing) await endUserSsoSessionsForNoRole(db, existing.id, { claim: decision.claim, values: detail.values });
    return { ok: false, refusal: { failure: "sso_no_role", user: existing, email: existing?.email ?? email, detail } };
  }

  if (!existing) {
    if (email === null)
      return {
        ok: false,
        refusal: {
          failure: "sso_email_missing",
          user: null,
          email: null,
          detail: { ...base, reason: "email_missing" },
        },
      };
    const role = decision.ok ? decision.role : "viewer"; // decision.ok is certain here: no pinned role without a user
    try {
      const user = await createSsoUser(
        db,
        { issuer: settings.issuer, subject, email, name: nameFromClaims(claims, email) },
        role,
        now,
      );
      return { ok: true, user, created: true, roleChange: null };
    } catch (error) {
      if (!isAccountError(error, "email_taken")) throw error;
      return {
        ok: false,
        refusal: { failure: "sso_email_taken", user: null, email, detail: { ...base, reason: "email_taken" } },
      };
    }
  }

  const role = !existing.rolePinned && decision.ok && decision.role !== existing.role ? decision.role : undefined;
  const { user } = await updateFromProvider(
    db,
    existing.id,
    { ...(email !== null && { email }), name: nameFromClaims(claims, email ?? existing.email), role },
    { now, signedIn: true },
  );
  return { ok: true, user, created: false, roleChange: role ? { from: existing.role, to: role } : null };
}

export type SsoRecheck =
  | { ok: true; user: User; roleChange: { from: Role; to: Role } | null }
  | { ok: false; refusal: SsoRefusal; noRole: NoRole };

/**
 * A re-check's claims (a refresh): the role follows the groups unless pinned; no mapped group (and no default
 * role) ends every session of the user. Email and name follow the provider too.
 */
export async function recheckWithClaims(
  db: Db,
  settings: OidcSettings,
  user: User,
  claims: Claims,
  now: Date = new Date(),
): Promise<SsoRecheck> {
  const decision = roleFromClaims(claims, settings);
  if (!decision.ok && !user.rolePinned) {
    const detail = {
      provider: settings.label,
      phase: "recheck",
      subject: String(claims.sub),
      reason: "no_role",
      claim: decision.claim,
      claim_found: decision.claimFound,
      values: shown(decision.values),
    };
    const noRole = { claim: decision.claim, values: detail.values };
    await endUserSsoSessionsForNoRole(db, user.id, noRole);
    return { ok: false, refusal: { failure: "sso_no_role", user, email: user.email, detail }, noRole };
  }
  const email = emailFromClaims(claims);
  const role = !user.rolePinned && decision.ok && decision.role !== user.role ? decision.role : undefined;
  const updated = await updateFromProvider(
    db,
    user.id,
    { ...(email !== null && { email }), name: nameFromClaims(claims, email ?? user.email), role },
    { now },
  );
  return { ok: true, user: updated.user, roleChange: role ? { from: user.role, to: role } : null };
}
