// User accounts as the portal API shows and accepts them: signing in, the current session, the admin API's users.
//
// The shape of each user field is here, once: the users repository, the config (ADMIN_EMAIL), the CLI and the
// admin API all validate with these, so a person gets the same message wherever he types an email or a name.
// No `server-only` and no Node modules.
import { z } from "zod";

import { isoTimestamp } from "./common";
import { TimeZoneSchema } from "./time-zone";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PERMISSIONS, ROLES } from "./values";

/** Error for z.string(): "x is required" when absent, "x must be text" when of another type. */
export function textError(field: string) {
  return {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined || issue.input === null ? `${field} is required` : `${field} must be text`,
  };
}

/** Emails are unique case-insensitively: stored trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const emailSchema = z
  .string(textError("email"))
  .transform(normalizeEmail)
  .pipe(z.email({ error: "email must be an address such as name@example.com" }).max(254, "email is too long"));

export const nameSchema = z
  .string(textError("name"))
  .trim()
  .min(1, "name must not be empty")
  .max(100, "name must be at most 100 characters");

export const roleSchema = z.enum(ROLES, { error: `role must be one of: ${ROLES.join(", ")}` });

// Characters a person cannot see: format characters (zero-width space and joiners, bidi controls, the BOM) and
// the other default-ignorable ones (variation selectors, Hangul fillers). They do not count towards the length.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const CONTROL = /\p{Cc}/u;

/** The password without its invisible characters: what the length and strength rules look at. */
export function visiblePassword(password: string): string {
  return password.replace(INVISIBLE, "");
}

/**
 * The shape of a password, wherever one is set (admin API, users CLI, ADMIN_PASSWORD). The strength rules (common
 * passwords, the account's email) need a dictionary and live server-side in ./password.ts, which extends this.
 */
export const passwordSchema = z
  .string(textError("password"))
  .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .superRefine((password, ctx) => {
    // One message at a time, the most basic first: a person fixes them in that order.
    const control = CONTROL.exec(password);
    if (control) {
      const code = control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
      ctx.addIssue({
        code: "custom",
        message: `password must not contain control characters (U+${code} at position ${control.index + 1})`,
      });
      return;
    }
    const visible = visiblePassword(password);
    if (visible.trim() === "") {
      ctx.addIssue({ code: "custom", message: "password must not be only spaces or invisible characters" });
      return;
    }
    if (Array.from(visible).length < PASSWORD_MIN_LENGTH) {
      ctx.addIssue({
        code: "custom",
        message:
          visible.length === password.length
            ? `password must be at least ${PASSWORD_MIN_LENGTH} characters`
            : `password must be at least ${PASSWORD_MIN_LENGTH} characters, not counting invisible ones (such as zero-width spaces)`,
      });
    }
  });

/** For z.strictObject: names the unknown fields and the known ones, instead of zod's generic message. */
export function onlyFields(known: readonly string[]) {
  return {
    error: (issue: { code?: string; keys?: string[] }) =>
      issue.code === "unrecognized_keys"
        ? `unknown field${issue.keys?.length === 1 ? "" : "s"}: ${issue.keys?.join(", ")} (known: ${known.join(", ")})`
        : undefined,
  };
}

/**
 * A person has a password; a service account (`service: true`) has none: it never signs in, and acts only
 * through the API tokens an admin makes for it.
 */
export const UserCreateBodySchema = z
  .strictObject(
    {
      email: emailSchema,
      name: nameSchema,
      role: roleSchema,
      password: passwordSchema.optional(),
      service: z.boolean({ error: "service must be true or false" }).optional(),
    },
    onlyFields(["email", "name", "role", "password", "service"]),
  )
  .superRefine((input, ctx) => {
    if (input.service === true && input.password !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["password"],
        message: "password must not be given for a service account: it never signs in",
      });
    } else if (input.service !== true && input.password === undefined) {
      ctx.addIssue({ code: "custom", path: ["password"], message: "password is required" });
    }
  });

export const UserUpdateBodySchema = z
  .strictObject(
    {
      name: nameSchema.optional(),
      role: roleSchema.optional(),
      disabled: z.boolean({ error: "disabled must be true or false" }).optional(),
      password: passwordSchema.optional(),
      /** Single sign-on users: true keeps the role an admin set; false lets sign-ins take it from the groups again. */
      role_pinned: z.boolean({ error: "role_pinned must be true or false" }).optional(),
      /** With a new password or disabled: true, revoke every API token of the user too (true when absent). */
      revoke_tokens: z.boolean({ error: "revoke_tokens must be true or false" }).optional(),
    },
    onlyFields(["name", "role", "disabled", "password", "role_pinned", "revoke_tokens"]),
  )
  .refine((patch) => Object.entries(patch).some(([name, v]) => name !== "revoke_tokens" && v !== undefined), {
    message: "nothing to change: give at least one of name, role, disabled, password, role_pinned",
    when: (payload) => payload.issues.length === 0,
  })
  .refine((patch) => patch.revoke_tokens === undefined || patch.password !== undefined || patch.disabled === true, {
    message:
      "revoke_tokens goes with a new password or disabled: true (to revoke one token, use DELETE /api/tokens/{id})",
    path: ["revoke_tokens"],
    when: (payload) => payload.issues.length === 0,
  });

// ---------------------------------------------------------------------------------------------------------
// The API's objects and inputs

export const LoginBodySchema = z.strictObject({
  email: emailSchema.describe("The account's email (case-insensitive)"),
  password: z
    .string(textError("password"))
    .min(1, "password is required")
    // Longer than any password the policy allows: refused before any hashing work.
    .max(1024, "password is too long"),
});

/** GET /api/auth/oidc/start: where to go after signing in, and "login" to choose another account at the provider. */
export const SsoStartQuerySchema = z.strictObject({
  next: z
    .string()
    .max(2048, "next must be at most 2048 characters")
    .optional()
    .describe("A path of this site to open after signing in"),
  prompt: z
    .enum(["none", "login"], {
      error: 'prompt must be "none" (a silent re-check) or "login" (sign in anew, e.g. as another account)',
    })
    .optional(),
});

export const SessionUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  time_zone: z
    .nullable(z.string())
    .describe("The IANA time zone he picked for the portal's times and days; null: his browser's"),
});

export const MeUpdateBodySchema = z.strictObject({
  time_zone: z
    .nullable(TimeZoneSchema)
    .describe("The IANA time zone for the portal's times and days, e.g. Europe/Berlin; null: the browser's"),
});

export const CurrentSessionSchema = z.object({
  user: SessionUserSchema,
  permissions: z
    .array(z.enum(PERMISSIONS))
    .describe(
      "What the role allows (the roles table in the README); with an API token, what the role and the token's scopes both allow",
    ),
  expires_at: z
    .nullable(isoTimestamp)
    .describe(
      "When the session ends unless a request renews it (idle) — never after the absolute limit; with an API token, when the token expires (null: never)",
    ),
  via: z.enum(["session", "api_token"]).describe("How the caller came in: the session cookie or an API token"),
});
export type CurrentSession = z.infer<typeof CurrentSessionSchema>;

export const UserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    disabled: z.boolean(),
    service: z.boolean().describe("A service account: never signs in, acts through API tokens only"),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    identity: z
      .object({ issuer: z.string(), subject: z.string() })
      .nullable()
      .describe(
        "Single sign-on: the provider (issuer) and the user's id there (sub), by which he is matched; null for a password user",
      ),
    role_pinned: z
      .boolean()
      .describe("Single sign-on users: the role was set by an admin and is not taken from the provider's groups"),
    last_sign_in_at: z.nullable(isoTimestamp).describe("When he last signed in; null before his first sign-in"),
  })
  .describe("A portal user. The password hash is never returned.");
export type UserOutput = z.infer<typeof UserSchema>;

export const UserIdParamsSchema = z.object({
  // A UUID in either letter case; the store keeps ids in lower case.
  id: z
    .uuid({ error: "must be a user id (a UUID, as GET /api/admin/users lists)" })
    .transform((id) => id.toLowerCase())
    .describe("User id"),
});
