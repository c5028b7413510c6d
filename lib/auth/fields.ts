// The shape of each user field, in one place: the users repository, the config (ADMIN_EMAIL) and the CLI
// all validate with these, so a person gets the same message wherever he types an email or a name.
import { z } from "zod";

import { ROLES } from "./permissions";

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

/** For z.strictObject: names the unknown fields and the known ones, instead of zod's generic message. */
export function onlyFields(known: readonly string[]) {
  return {
    error: (issue: { code?: string; keys?: string[] }) =>
      issue.code === "unrecognized_keys"
        ? `unknown field${issue.keys?.length === 1 ? "" : "s"}: ${issue.keys?.join(", ")} (known: ${known.join(", ")})`
        : undefined,
  };
}
