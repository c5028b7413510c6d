"use client";
// Email and password, checked in the browser first (so an empty field is named at once), then sent to
// POST /api/auth/login. A success loads the page asked for; a refusal says what to do. Without JavaScript the
// same form posts itself (method POST, never GET: a password never goes into a URL) to the same route, which
// answers with a redirect: to the page asked for (or the second step), or back here with ?error= (see page.tsx).
import type { FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { ErrorSummary } from "@/components/ui/error-summary";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import { useApiForm } from "@/components/use-api-form";
import type { ApiRequestError } from "@/lib/portal/api-client";
import { presentErrors } from "@/lib/portal/forms";

import styles from "./login.module.css";
import { signInFailure, type ProviderWords } from "./messages";

const LABELS = { email: "Email", password: "Password" };
const FIELD_NAMES = Object.keys(LABELS);

/** What the banner says when the gateway refused a sign-in. */
function failureMessage(error: ApiRequestError, provider: ProviderWords | undefined): string {
  if (error.status === 401 || error.status === 429)
    return (
      signInFailure(error.status === 401 ? "invalid_credentials" : "rate_limited", error.retryAfterSeconds) ??
      error.message
    );
  if (error.code === "password_login_off") return signInFailure(error.code, undefined, provider) ?? error.message;
  return error.message;
}

export function LoginForm({
  next,
  initialFailure = null,
  provider,
}: {
  next: string;
  initialFailure?: string | null;
  provider?: ProviderWords;
}) {
  const {
    busy,
    fields: fieldErrors,
    failure,
    check,
    send,
  } = useApiForm({
    fieldNames: FIELD_NAMES,
    failureOf: (error) => ({ message: failureMessage(error, provider) }),
    initialFailure: initialFailure === null ? null : { message: initialFailure },
    leavesOnSuccess: true,
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (
      !check({
        email: email ? undefined : "Enter your email address.",
        password: password ? undefined : "Enter your password.",
      })
    )
      return;
    const answer = await send<{ data: { second_factor?: unknown } }>("/api/auth/login", {
      method: "POST",
      body: { email, password },
    });
    if (answer === false) return;
    // A person with a second factor gives it on the next page; a full load either way, so that every part of the
    // page is rendered for the signed-in user.
    window.location.assign(
      answer.data.second_factor === undefined ? next : `/login/second-step?${new URLSearchParams({ next })}`,
    );
  };

  return (
    <form
      method="post"
      action="/api/auth/login"
      noValidate
      onSubmit={(event) => void submit(event)}
      className={styles.form}
      aria-label="Sign in"
    >
      <input type="hidden" name="next" value={next} />
      <ErrorSummary errors={presentErrors(fieldErrors)} labels={LABELS} />
      <FormErrorBanner message={failure?.message} title="Not signed in" />
      <TextField
        name="email"
        label={LABELS.email}
        type="email"
        autoComplete="username"
        required
        error={fieldErrors.email}
      />
      <TextField
        name="password"
        label={LABELS.password}
        type="password"
        autoComplete="current-password"
        required
        error={fieldErrors.password}
      />
      <Button type="submit" variant="primary" fullWidth loading={busy} loadingText="Signing in…">
        Sign in
      </Button>
    </form>
  );
}
