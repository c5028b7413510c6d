"use client";
// Email and password, checked in the browser first (so an empty field is named at once), then sent to
// POST /api/auth/login. A success loads the page asked for; a refusal says what to do. Without JavaScript the
// same form posts itself (method POST, never GET: a password never goes into a URL) to the same route, which
// answers with a redirect: to the page asked for, or back here with ?error= (see page.tsx).
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { ErrorSummary } from "@/components/ui/error-summary";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { presentErrors } from "@/lib/portal/forms";

import styles from "./login.module.css";
import { signInFailure, type ProviderWords } from "./messages";

type Fields = Partial<Record<"email" | "password", string>>;

const LABELS = { email: "Email", password: "Password" };

export function LoginForm({
  next,
  initialFailure = null,
  provider,
}: {
  next: string;
  initialFailure?: string | null;
  provider?: ProviderWords;
}) {
  const [fieldErrors, setFieldErrors] = useState<Fields>({});
  const [failure, setFailure] = useState<string | null>(initialFailure);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const errors: Fields = {};
    if (!email) errors.email = "Enter your email address.";
    if (!password) errors.password = "Enter your password.";
    setFieldErrors(errors);
    setFailure(null);
    if (Object.keys(errors).length > 0) return;

    setBusy(true);
    try {
      await apiRequest("/api/auth/login", { method: "POST", body: { email, password } });
      // A full load, so that every part of the page is rendered for the signed-in user.
      window.location.assign(next);
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiRequestError)) throw error;
      if (error.status === 401 || error.status === 429) {
        setFailure(
          signInFailure(error.status === 401 ? "invalid_credentials" : "rate_limited", error.retryAfterSeconds),
        );
      } else if (error.code === "password_login_off") {
        setFailure(signInFailure(error.code, undefined, provider));
      } else if (error.code === "invalid_input" && error.fields) {
        setFieldErrors({ email: error.fields.email, password: error.fields.password });
        setFailure(error.fields.email || error.fields.password ? null : error.message);
      } else {
        setFailure(error.message);
      }
    }
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
      <FormErrorBanner message={failure} title="Not signed in" />
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
