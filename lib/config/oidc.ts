// Single sign-on (OpenID Connect) and password sign-in settings: OIDC_* , PASSWORD_LOGIN and BREAK_GLASS_EMAIL.
// Pure readSignInSettings(env) for the start-up check (every problem one line, all at once, never a secret's
// value); getSignInSettings() reads process.env once per process. Demo mode has no single sign-on.
import "server-only";

import { z } from "zod";

import { emailSchema } from "@/lib/contract/accounts";
import { isOneOf, ROLES, type Role } from "@/lib/contract/values";
import { processWide } from "@/lib/process-wide";

import { isLoopbackHostname } from "./edge";
import { ConfigError, type ConfigProblem } from "./env";
import { isDemoMode } from "./mode";
import { isSecretVariable } from "./variables";

type Env = Record<string, string | undefined>;

export interface RoleMapping {
  /** A value of the role claim, exactly as the provider sends it (a group name, a role, an Entra group id). */
  group: string;
  role: Role;
}

export interface OidcSettings {
  /** The issuer identifier exactly as given (discovery checks the provider's `issuer` against it). */
  issuer: string;
  clientId: string;
  /** null: a public client, authenticated by PKCE alone. */
  clientSecret: string | null;
  /** null: "openid email profile" plus the role claim's scope when the provider lists it (see lib/auth/oidc/provider.ts). */
  scopes: string[] | null;
  /** The claim holding groups or roles: a top-level name, or a dotted path into nested claims (realm_access.roles). */
  roleClaim: string;
  roleMap: RoleMapping[];
  /** The role of a user with no mapped group; null refuses him. */
  defaultRole: Role | null;
  /** The provider's name for people: "Sign in with <label>". */
  label: string;
  /** An SSO session is checked against the provider again after this long. */
  recheckMs: number;
}

export interface SignInSettings {
  /** null: single sign-on is off. */
  oidc: OidcSettings | null;
  /** PASSWORD_LOGIN: false turns password sign-in off for everyone but the break-glass admin. */
  passwordLogin: boolean;
  /** With password sign-in off: the one admin who may still sign in with a password (BREAK_GLASS_EMAIL, else ADMIN_EMAIL). */
  breakGlassEmail: string | null;
}

export const SSO_SETTINGS = [
  "OIDC_ISSUER",
  "OIDC_CLIENT_ID",
  "OIDC_CLIENT_SECRET",
  "OIDC_SCOPES",
  "OIDC_ROLE_CLAIM",
  "OIDC_ROLE_MAP",
  "OIDC_DEFAULT_ROLE",
  "OIDC_LABEL",
  "OIDC_RECHECK_MINUTES",
] as const;

export const DEFAULT_ROLE_CLAIM = "groups";
export const DEFAULT_OIDC_LABEL = "SSO";
export const DEFAULT_RECHECK_MINUTES = 60;
const MAX_RECHECK_MINUTES = 24 * 60;

export const SIGN_IN_OFF: SignInSettings = Object.freeze({ oidc: null, passwordLogin: true, breakGlassEmail: null });

const present = (env: Env, name: string) => {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
};

/** An issuer is https, or http on a loopback name only (tests and local trials): tokens cross the network. */
function issuerProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be the provider's issuer URL, such as https://login.example.com/realms/staff";
  }
  if (url.username || url.password || url.search || url.hash)
    return "must be the issuer URL alone, without a user name, password, query or fragment";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && isLoopbackHostname(url.hostname)) return null;
  if (url.protocol === "http:")
    return "must be https:// (plain http is accepted only on a loopback address such as http://127.0.0.1:8080, for tests and local trials)";
  return "must start with https://";
}

/** "portal-admins=admin, portal-editors=editor": each entry `<claim value>=<role>`; the value may hold "=" but not ",". */
export function parseRoleMap(value: string): { map: RoleMapping[] } | { problem: string } {
  const map: RoleMapping[] = [];
  for (const raw of value.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const at = entry.lastIndexOf("=");
    const group = at > 0 ? entry.slice(0, at).trim() : "";
    const role = at > 0 ? entry.slice(at + 1).trim() : "";
    if (group === "")
      return {
        problem: `entry ${JSON.stringify(entry.slice(0, 60))} must be <group>=<role>, such as portal-admins=admin`,
      };
    if (!isOneOf(ROLES, role))
      return {
        problem: `entry ${JSON.stringify(entry.slice(0, 60))} names the role ${JSON.stringify(role.slice(0, 30))}; roles are ${ROLES.join(", ")}`,
      };
    const earlier = map.find((known) => known.group === group);
    if (earlier && earlier.role !== role)
      return {
        problem: `maps ${JSON.stringify(group.slice(0, 60))} twice, to ${earlier.role} and to ${role}; keep one`,
      };
    if (!earlier) map.push({ group, role });
  }
  if (map.length === 0) return { problem: "names no group; write <group>=<role>, separated by commas" };
  return { map };
}

const labelSchema = z
  .string()
  .max(60, "must be at most 60 characters")
  .regex(/^[^\p{Cc}]+$/u, "must be plain text on one line");

const claimSchema = z
  .string()
  .max(200, "must be at most 200 characters")
  .regex(/^[^\s.]+(\.[^\s.]+)*$/, "must be a claim name, or a dotted path such as realm_access.roles (no spaces)");

/** The first message of `schema` for `value`, or null when it passes. */
function issueOf(schema: z.ZodType, value: string): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? "is invalid");
}

const clientValue = z
  .string()
  .max(2048, "is too long (at most 2048 characters)")
  .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces (check for a pasted newline or quotes)");

/**
 * Reads and checks the sign-in settings. Every problem is added (one per variable); warnings are facts the
 * operator should hear at start. Unset OIDC_ISSUER with other OIDC_* set is a problem: they would be ignored.
 */
export function readSignInSettings(env: Env): {
  settings: SignInSettings;
  problems: ConfigProblem[];
  warnings: string[];
} {
  const problems: ConfigProblem[] = [];
  const warnings: string[] = [];
  const problem = (variable: string, text: string) =>
    problems.push({ variable, problem: text, value: isSecretVariable(variable) ? undefined : present(env, variable) });

  const issuer = present(env, "OIDC_ISSUER");
  let oidc: OidcSettings | null = null;
  if (issuer === undefined) {
    for (const name of SSO_SETTINGS) {
      if (name !== "OIDC_ISSUER" && present(env, name) !== undefined)
        problem(
          name,
          "is set but OIDC_ISSUER is not, so single sign-on is off and it would be ignored; set OIDC_ISSUER too, or remove it",
        );
    }
  } else {
    const issuerIssue = issuerProblem(issuer);
    if (issuerIssue) problem("OIDC_ISSUER", issuerIssue);
    const clientId = present(env, "OIDC_CLIENT_ID");
    if (clientId === undefined)
      problem(
        "OIDC_CLIENT_ID",
        "is required with OIDC_ISSUER: the client id Gatehouse was registered with at the provider",
      );
    const clientIdIssue = clientId === undefined ? null : issueOf(clientValue, clientId);
    if (clientIdIssue) problem("OIDC_CLIENT_ID", clientIdIssue);
    const clientSecret = present(env, "OIDC_CLIENT_SECRET") ?? null;
    const secretIssue = clientSecret === null ? null : issueOf(clientValue, clientSecret);
    if (secretIssue) problem("OIDC_CLIENT_SECRET", secretIssue);

    let scopes: string[] | null = null;
    const scopeText = present(env, "OIDC_SCOPES");
    if (scopeText !== undefined) {
      scopes = [...new Set(scopeText.split(/[\s,]+/).filter(Boolean))];
      if (!scopes.includes("openid"))
        problem("OIDC_SCOPES", 'must include "openid" (it is what makes the provider answer with an ID token)');
      else if (scopes.some((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)))
        problem("OIDC_SCOPES", "must be scope names separated by spaces, such as: openid email profile groups");
    }

    const roleClaim = present(env, "OIDC_ROLE_CLAIM") ?? DEFAULT_ROLE_CLAIM;
    const claimIssue = issueOf(claimSchema, roleClaim);
    if (claimIssue) problem("OIDC_ROLE_CLAIM", claimIssue);

    let roleMap: RoleMapping[] = [];
    const mapText = present(env, "OIDC_ROLE_MAP");
    if (mapText !== undefined) {
      const parsed = parseRoleMap(mapText);
      // The problem quotes the entry at fault: the whole value before it would show that entry twice.
      if ("problem" in parsed) problems.push({ variable: "OIDC_ROLE_MAP", problem: parsed.problem });
      else roleMap = parsed.map;
    }
    const defaultRoleText = present(env, "OIDC_DEFAULT_ROLE");
    let defaultRole: Role | null = null;
    if (defaultRoleText !== undefined) {
      if (isOneOf(ROLES, defaultRoleText)) defaultRole = defaultRoleText;
      else
        problem("OIDC_DEFAULT_ROLE", `must be one of ${ROLES.join(", ")}, or unset to refuse users in no mapped group`);
    }
    if (mapText === undefined && defaultRoleText === undefined) {
      problem(
        "OIDC_ROLE_MAP",
        "is required with OIDC_ISSUER (or OIDC_DEFAULT_ROLE): without either, every single sign-on would be refused; write <group>=<role>, such as portal-admins=admin,portal-staff=viewer",
      );
    }

    const label = present(env, "OIDC_LABEL") ?? DEFAULT_OIDC_LABEL;
    const labelIssue = issueOf(labelSchema, label);
    if (labelIssue) problem("OIDC_LABEL", labelIssue);

    let recheckMinutes = DEFAULT_RECHECK_MINUTES;
    const recheckText = present(env, "OIDC_RECHECK_MINUTES");
    if (recheckText !== undefined) {
      const minutes = Number(recheckText);
      if (!/^\d+(\.\d+)?$/.test(recheckText) || !(minutes > 0))
        problem(
          "OIDC_RECHECK_MINUTES",
          "must be a number of minutes greater than 0 (a fraction is allowed: 0.5 is 30 seconds)",
        );
      else if (minutes > MAX_RECHECK_MINUTES)
        problem(
          "OIDC_RECHECK_MINUTES",
          `must be at most ${MAX_RECHECK_MINUTES} (a day): a user removed at the provider keeps access until the next check`,
        );
      else recheckMinutes = minutes;
      if (minutes > 0 && minutes < 1)
        warnings.push(
          `OIDC_RECHECK_MINUTES is ${recheckText}: every SSO session asks the provider again that often; fine for tests, heavy for a provider in production.`,
        );
    }

    if (present(env, "PUBLIC_ORIGIN") === undefined) {
      warnings.push(
        "OIDC_ISSUER is set but PUBLIC_ORIGIN is not: the redirect URI sent to the provider follows the host name each sign-in came to (<origin>/api/auth/oidc/callback); set PUBLIC_ORIGIN so that it is the one URI registered at the provider.",
      );
    }
    if (issuer.startsWith("http:") && !issuerIssue) {
      warnings.push(
        `OIDC_ISSUER is plain http (${issuer}): accepted on a loopback address for tests and local trials only.`,
      );
    }
    if (problems.length === 0) {
      oidc = {
        issuer,
        clientId: clientId!,
        clientSecret,
        scopes,
        roleClaim,
        roleMap,
        defaultRole,
        label,
        recheckMs: Math.round(recheckMinutes * 60_000),
      };
    }
  }

  const passwordText = present(env, "PASSWORD_LOGIN")?.toLowerCase();
  let passwordLogin = true;
  if (passwordText !== undefined && passwordText !== "on" && passwordText !== "off")
    problem("PASSWORD_LOGIN", 'must be "on" (default) or "off"');
  if (passwordText === "off") {
    passwordLogin = false;
    if (issuer === undefined)
      problem(
        "PASSWORD_LOGIN",
        "needs OIDC_ISSUER: with password sign-in off and no single sign-on, nobody but the break-glass admin could sign in",
      );
  }

  let breakGlassEmail: string | null = null;
  const breakGlassText = present(env, "BREAK_GLASS_EMAIL");
  if (breakGlassText !== undefined) {
    const parsed = emailSchema.safeParse(breakGlassText);
    if (!parsed.success) problem("BREAK_GLASS_EMAIL", parsed.error.issues[0]!.message.replace(/^email /, ""));
    else breakGlassEmail = parsed.data;
    if (passwordLogin && passwordText !== undefined)
      warnings.push("BREAK_GLASS_EMAIL is ignored: PASSWORD_LOGIN is on, so every account with a password may use it.");
  } else if (!passwordLogin) {
    const admin = emailSchema.safeParse(present(env, "ADMIN_EMAIL") ?? "");
    if (admin.success) breakGlassEmail = admin.data;
    else
      problem(
        "BREAK_GLASS_EMAIL",
        "is required when PASSWORD_LOGIN is off (or ADMIN_EMAIL): the one admin who can still sign in with a password if the provider is down",
      );
  }

  return {
    settings: { oidc, passwordLogin, breakGlassEmail: passwordLogin ? null : breakGlassEmail },
    problems,
    warnings,
  };
}

/** The sign-in settings of this process (none in demo mode). Throws ConfigError when they are invalid. */
export function getSignInSettings(): SignInSettings {
  return processWide("config.signIn", () => {
    if (isDemoMode()) return SIGN_IN_OFF;
    const read = readSignInSettings(process.env);
    if (read.problems.length > 0) throw new ConfigError(read.problems);
    return read.settings;
  });
}
