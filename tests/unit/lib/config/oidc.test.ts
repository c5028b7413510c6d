// Single sign-on and password sign-in settings (lib/config/oidc.ts), alone and inside the whole start-up check:
// every problem one line, all at once, never a secret's value.
import { describe, expect, it } from "vitest";

import { checkConfiguration } from "@/lib/config/check";
import { formatProblem } from "@/lib/config/env";
import { parseRoleMap, readSignInSettings } from "@/lib/config/oidc";

const SSO = {
  OIDC_ISSUER: "https://login.example.com/realms/staff",
  OIDC_CLIENT_ID: "gatehouse",
  OIDC_CLIENT_SECRET: "the-client-secret-0123456789",
  OIDC_ROLE_MAP: "portal-admins=admin, portal-editors=editor",
  PUBLIC_ORIGIN: "https://portal.example.com",
};
const lines = (env: Record<string, string | undefined>) => readSignInSettings(env).problems.map(formatProblem);

describe("single sign-on settings", () => {
  it("are off without OIDC_ISSUER, and password sign-in is on", () => {
    expect(readSignInSettings({})).toEqual({
      settings: { oidc: null, passwordLogin: true, breakGlassEmail: null },
      problems: [],
      warnings: [],
    });
  });

  it("read a complete configuration, with the defaults", () => {
    const { settings, problems, warnings } = readSignInSettings(SSO);
    expect(problems).toEqual([]);
    expect(warnings).toEqual([]);
    expect(settings.oidc).toEqual({
      issuer: "https://login.example.com/realms/staff",
      clientId: "gatehouse",
      clientSecret: "the-client-secret-0123456789",
      scopes: null,
      roleClaim: "groups",
      roleMap: [
        { group: "portal-admins", role: "admin" },
        { group: "portal-editors", role: "editor" },
      ],
      defaultRole: null,
      label: "SSO",
      recheckMs: 3_600_000,
    });
  });

  it("keep the issuer exactly as given (a trailing slash is part of Authentik's)", () => {
    expect(
      readSignInSettings({ ...SSO, OIDC_ISSUER: "https://auth.example.com/application/o/gatehouse/" }).settings.oidc
        ?.issuer,
    ).toBe("https://auth.example.com/application/o/gatehouse/");
  });

  it("take a public client (no secret), scopes, a nested claim, a default role, a label and minutes", () => {
    const { settings, problems } = readSignInSettings({
      ...SSO,
      OIDC_CLIENT_SECRET: undefined,
      OIDC_SCOPES: "openid email profile roles offline_access",
      OIDC_ROLE_CLAIM: "realm_access.roles",
      OIDC_DEFAULT_ROLE: "viewer",
      OIDC_LABEL: "Acme Keycloak",
      OIDC_RECHECK_MINUTES: "0.5",
    });
    expect(problems).toEqual([]);
    expect(settings.oidc).toMatchObject({
      clientSecret: null,
      scopes: ["openid", "email", "profile", "roles", "offline_access"],
      roleClaim: "realm_access.roles",
      defaultRole: "viewer",
      label: "Acme Keycloak",
      recheckMs: 30_000,
    });
  });

  it("accept plain http only on a loopback address, with a warning", () => {
    for (const issuer of ["http://127.0.0.1:8080", "http://localhost:8080/realms/dev", "http://[::1]:9000"]) {
      const read = readSignInSettings({ ...SSO, OIDC_ISSUER: issuer });
      expect(read.problems, issuer).toEqual([]);
      expect(read.warnings, issuer).toContain(
        `OIDC_ISSUER is plain http (${issuer}): accepted on a loopback address for tests and local trials only.`,
      );
    }
    expect(lines({ ...SSO, OIDC_ISSUER: "http://login.example.com" })).toEqual([
      'OIDC_ISSUER: "http://login.example.com" must be https:// (plain http is accepted only on a loopback address such as http://127.0.0.1:8080, for tests and local trials)',
    ]);
    expect(lines({ ...SSO, OIDC_ISSUER: "http://10.0.0.5" })).toHaveLength(1);
  });

  it("name every problem at once, one line each, never the secret", () => {
    const env = {
      OIDC_ISSUER: "ftp://login.example.com",
      OIDC_CLIENT_SECRET: "a secret with spaces",
      OIDC_SCOPES: "email profile",
      OIDC_ROLE_CLAIM: "realm access",
      OIDC_ROLE_MAP: "portal-admins=owner",
      OIDC_DEFAULT_ROLE: "boss",
      OIDC_RECHECK_MINUTES: "-5",
      PASSWORD_LOGIN: "maybe",
    };
    const found = lines(env);
    expect(found).toEqual([
      'OIDC_ISSUER: "ftp://login.example.com" must start with https://',
      "OIDC_CLIENT_ID: is required with OIDC_ISSUER: the client id Gatehouse was registered with at the provider",
      "OIDC_CLIENT_SECRET: must be printable ASCII without spaces (check for a pasted newline or quotes)",
      'OIDC_SCOPES: "email profile" must include "openid" (it is what makes the provider answer with an ID token)',
      'OIDC_ROLE_CLAIM: "realm access" must be a claim name, or a dotted path such as realm_access.roles (no spaces)',
      'OIDC_ROLE_MAP: entry "portal-admins=owner" names the role "owner"; roles are admin, editor, viewer, support',
      'OIDC_DEFAULT_ROLE: "boss" must be one of admin, editor, viewer, support, or unset to refuse users in no mapped group',
      'OIDC_RECHECK_MINUTES: "-5" must be a number of minutes greater than 0 (a fraction is allowed: 0.5 is 30 seconds)',
      'PASSWORD_LOGIN: "maybe" must be "on" (default) or "off"',
    ]);
    expect(found.join("\n")).not.toContain("a secret with spaces");
  });

  it("refuse a configuration where every sign-in would be refused", () => {
    expect(lines({ ...SSO, OIDC_ROLE_MAP: undefined })).toEqual([
      "OIDC_ROLE_MAP: is required with OIDC_ISSUER (or OIDC_DEFAULT_ROLE): without either, every single sign-on would be refused; write <group>=<role>, such as portal-admins=admin,portal-staff=viewer",
    ]);
    expect(lines({ ...SSO, OIDC_ROLE_MAP: undefined, OIDC_DEFAULT_ROLE: "viewer" })).toEqual([]);
  });

  it("refuse OIDC_ settings that single sign-on being off would ignore", () => {
    expect(lines({ OIDC_CLIENT_ID: "gatehouse", OIDC_LABEL: "Okta" })).toEqual([
      'OIDC_CLIENT_ID: "gatehouse" is set but OIDC_ISSUER is not, so single sign-on is off and it would be ignored; set OIDC_ISSUER too, or remove it',
      'OIDC_LABEL: "Okta" is set but OIDC_ISSUER is not, so single sign-on is off and it would be ignored; set OIDC_ISSUER too, or remove it',
    ]);
  });

  it("bound the re-check: at most a day, a warning under a minute", () => {
    expect(lines({ ...SSO, OIDC_RECHECK_MINUTES: "2000" })).toEqual([
      'OIDC_RECHECK_MINUTES: "2000" must be at most 1440 (a day): a user removed at the provider keeps access until the next check',
    ]);
    expect(readSignInSettings({ ...SSO, OIDC_RECHECK_MINUTES: "0.05" }).warnings).toEqual([
      "OIDC_RECHECK_MINUTES is 0.05: every SSO session asks the provider again that often; fine for tests, heavy for a provider in production.",
    ]);
  });

  it("warn without PUBLIC_ORIGIN: the redirect URI would follow each request's host", () => {
    expect(readSignInSettings({ ...SSO, PUBLIC_ORIGIN: undefined }).warnings[0]).toMatch(
      /^OIDC_ISSUER is set but PUBLIC_ORIGIN is not/,
    );
  });
});

describe("password sign-in", () => {
  it("off keeps one break-glass admin: BREAK_GLASS_EMAIL, else ADMIN_EMAIL", () => {
    expect(
      readSignInSettings({
        ...SSO,
        PASSWORD_LOGIN: "off",
        BREAK_GLASS_EMAIL: "Root@Example.com",
        ADMIN_EMAIL: "admin@example.com",
      }).settings,
    ).toMatchObject({
      passwordLogin: false,
      breakGlassEmail: "root@example.com",
    });
    expect(
      readSignInSettings({ ...SSO, PASSWORD_LOGIN: "OFF", ADMIN_EMAIL: "admin@example.com" }).settings,
    ).toMatchObject({ passwordLogin: false, breakGlassEmail: "admin@example.com" });
  });

  it("off needs single sign-on and a break-glass admin", () => {
    expect(lines({ PASSWORD_LOGIN: "off" })).toEqual([
      'PASSWORD_LOGIN: "off" needs OIDC_ISSUER: with password sign-in off and no single sign-on, nobody but the break-glass admin could sign in',
      "BREAK_GLASS_EMAIL: is required when PASSWORD_LOGIN is off (or ADMIN_EMAIL): the one admin who can still sign in with a password if the provider is down",
    ]);
    expect(lines({ ...SSO, PASSWORD_LOGIN: "off", BREAK_GLASS_EMAIL: "not-an-email" })).toEqual([
      'BREAK_GLASS_EMAIL: "not-an-email" must be an address such as name@example.com',
    ]);
  });

  it("on (the default) has no break-glass admin: everyone with a password may use it", () => {
    const read = readSignInSettings({ ...SSO, PASSWORD_LOGIN: "on", BREAK_GLASS_EMAIL: "root@example.com" });
    expect(read.settings).toMatchObject({ passwordLogin: true, breakGlassEmail: null });
    expect(read.warnings).toContain(
      "BREAK_GLASS_EMAIL is ignored: PASSWORD_LOGIN is on, so every account with a password may use it.",
    );
  });
});

describe("OIDC_ROLE_MAP", () => {
  it("allows = inside a value and spaces around entries, and a repeated identical entry", () => {
    expect(parseRoleMap(" team=red=admin , staff=viewer, staff=viewer ,")).toEqual({
      map: [
        { group: "team=red", role: "admin" },
        { group: "staff", role: "viewer" },
      ],
    });
  });

  it("a problem quotes the entry at fault once, not the whole value before it", () => {
    expect(lines({ ...SSO, OIDC_ROLE_MAP: "portal-admins=admin, portal-editors=owner" })).toEqual([
      'OIDC_ROLE_MAP: entry "portal-editors=owner" names the role "owner"; roles are admin, editor, viewer, support',
    ]);
    expect(lines({ ...SSO, OIDC_ROLE_MAP: "portal-admins" })).toEqual([
      'OIDC_ROLE_MAP: entry "portal-admins" must be <group>=<role>, such as portal-admins=admin',
    ]);
  });

  it("refuses an entry without a role, a value mapped twice, and an empty map", () => {
    expect(parseRoleMap("portal-admins")).toEqual({
      problem: 'entry "portal-admins" must be <group>=<role>, such as portal-admins=admin',
    });
    expect(parseRoleMap("a=admin,a=viewer")).toEqual({ problem: 'maps "a" twice, to admin and to viewer; keep one' });
    expect(parseRoleMap(" , ")).toEqual({ problem: "names no group; write <group>=<role>, separated by commas" });
  });
});

describe("inside the start-up check", () => {
  const BASE = {
    REPORTS_API_BASE_URL: "https://reports.example.com/seo",
    REPORTS_API_KEY: "reports-key-value-123",
    SESSION_SECRET: "Q8x2kLr0v9ZpA1nB7cD3eF5gH6jK4mN0pQ2rS8tU1vW=",
    PUBLIC_ORIGIN: "https://portal.example.com",
    TRUST_PROXY: "1",
  };

  it("adds its problems to the others', and names look-alikes of its variables", () => {
    const check = checkConfiguration({
      ...BASE,
      SESSION_SECRET: "short",
      OIDC_ISUER: "https://login.example.com",
      OIDC_CLIENT_ID: "gatehouse",
    });
    expect(check.problems.map(formatProblem)).toEqual([
      "OIDC_ISUER: is not a Gatehouse setting, so it would be ignored; did you mean OIDC_ISSUER?",
      "SESSION_SECRET: the secret has 5 characters; each secret needs at least 32 (generate one with: openssl rand -base64 32)",
      'OIDC_CLIENT_ID: "gatehouse" is set but OIDC_ISSUER is not, so single sign-on is off and it would be ignored; set OIDC_ISSUER too, or remove it',
    ]);
  });

  it("never prints the client secret", () => {
    const check = checkConfiguration({
      ...BASE,
      ...SSO,
      OIDC_ISSUER: "http://login.example.com",
      OIDC_CLIENT_SECRET: "bad secret value 0123",
    });
    expect(check.problems.map(formatProblem).join("\n")).not.toContain("bad secret value");
  });

  it("demo mode ignores single sign-on and says so", () => {
    const check = checkConfiguration({ GATEHOUSE_DEMO: "1", ...SSO, PASSWORD_LOGIN: "off" });
    expect(check.problems).toEqual([]);
    expect(check.notes[0]).toContain("OIDC_ISSUER");
    expect(check.notes[0]).toContain("PASSWORD_LOGIN");
  });
});
