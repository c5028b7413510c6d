// The password policy: what a password must be wherever one is set — the admin API, the users CLI,
// ADMIN_PASSWORD. No configuration, so the start-up check (lib/config) judges ADMIN_PASSWORD
// with the same rule as the accounts (lib/auth/users.ts); hashing is lib/auth/password.ts.
import { z } from "zod";

import { passwordSchema as passwordShape, visiblePassword } from "./accounts";
import { passwordEstimator } from "./password-estimator";

// Policy (OWASP ASVS 5.0, 6.2): at least 12 visible characters, no control characters, and not easy to guess —
// not a common password, not built from the account's own email or name. The shape rules live in ./accounts.ts
// (no dictionary, so the browser may use them); the guessability check here, with zxcvbn-ts and its offline
// lists of common passwords and words, because a well-kept estimator beats a list of our own.

/**
 * zxcvbn's top score, 4: about 10^10 guesses or more. Score 3 (10^8) is the usual bar, but the estimator gives
 * at least 10^8 to almost any 12 characters ("summer2024!!"), so with our length rule 3 would refuse too little.
 */
export const PASSWORD_MIN_SCORE = 4;
/** The estimator's work grows with the length; a longer password's first 100 characters tell enough. */
const CHECKED_LENGTH = 100;
/** Words every Gatehouse account would share: the product's name is no secret. */
const PRODUCT_WORDS = ["gatehouse", "gate house", "portal"];

/**
 * The estimator runs in a worker thread (./password-estimator.ts), which ends after a minute without a check and
 * starts again (about 0.3 s) when the next password is set.
 */
const estimator = passwordEstimator({ keptMs: 60_000 });

/** Who the password is for: his email (and name) must not make it. */
export interface PasswordContext {
  email?: string | null;
  name?: string | null;
}

/**
 * Why this password may not be set, as "password …" (the fields' wording), or null when it may. Assumes the
 * shape rules of ./accounts.ts passed.
 */
export function passwordProblem(password: string, context: PasswordContext = {}): string | null {
  const visible = visiblePassword(password).normalize("NFKC");
  const lower = visible.toLowerCase();
  const email = context.email?.trim().toLowerCase() ?? "";
  if (email !== "" && (lower.includes(email) || lower === email.split("@")[0])) {
    return "password must not contain the account's email";
  }
  const inputs = [...PRODUCT_WORDS];
  if (email !== "") inputs.push(email, ...email.split(/[@.+_-]/).filter((part) => part.length >= 3));
  if (context.name?.trim())
    inputs.push(
      ...context.name
        .trim()
        .toLowerCase()
        .split(/\s+/)
        .filter((part) => part.length >= 3),
    );
  const result = estimator.check(visible.slice(0, CHECKED_LENGTH), inputs);
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const why = result.warning ?? "it is made of common words, names or patterns";
  return `password is too easy to guess: ${why.replace(/\.$/, "")}. Use a longer phrase of unrelated words`;
}

/**
 * The whole policy for one password, where the account is not known yet (ADMIN_PASSWORD, the CLI's prompt).
 * The users repository checks again with the account's email and name.
 */
export const passwordSchema = passwordShape.superRefine(
  (password, ctx) => {
    const problem = passwordProblem(password);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  },
  { when: onlyWhenValidSoFar },
);

/** A person fixes one thing at a time: the strength is judged once the shape rules pass. */
export function onlyWhenValidSoFar(payload: { issues: readonly unknown[] }): boolean {
  return payload.issues.length === 0;
}

/** Adds the policy's refusal for `password` to a zod context, at path ["password"], knowing the account. */
export function checkPasswordFor(password: string | undefined, context: PasswordContext, ctx: z.RefinementCtx): void {
  if (password === undefined) return;
  const problem = passwordProblem(password, context);
  if (problem) ctx.addIssue({ code: "custom", path: ["password"], message: problem });
}
