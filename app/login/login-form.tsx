"use client";
// Email and password, checked in the browser first (so an empty field is named at once), then sent to
// POST /api/auth/login. A success loads the page asked for; a refusal says what to do.
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { ErrorSummary } from "@/components/ui/error-summary";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { presentErrors } from "@/lib/portal/forms";

import styles from "./login.module.css";

type Fields = Partial<Record<"email" | "password", string>>;

const LABELS = { email: "Email", password: "Password" };

function waitText(seconds: number | undefined): string {
  if (!seconds) return "in a few minutes";
  if (seconds < 90) return `in ${seconds} seconds`;
  return `in ${Math.ceil(seconds / 60)} minutes`;
}

export function LoginForm({ next }: { next: string }) {
  const [fieldErrors, setFieldErrors] = useState<Fields>({});
  const [failure, setFailure] = useState<string | null>(null);
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
      if (error.status === 401) {
        setFailure("The email or the password is not right. Check both and try again.");
      } else if (error.status === 429) {
        setFailure(`Too many sign-in attempts. Try again ${waitText(error.retryAfterSeconds)}.`);
      } else if (error.code === "invalid_input" && error.fields) {
        setFieldErrors({ email: error.fields.email, password: error.fields.password });
        setFailure(error.fields.email || error.fields.password ? null : error.message);
      } else {
        setFailure(error.message);
      }
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className={styles.form} aria-label="Sign in">
      <ErrorSummary errors={presentErrors(fieldErrors)} labels={LABELS} />
      <FormErrorBanner message={failure} title="Not signed in" />
      <TextField name="email" label={LABELS.email} type="email" autoComplete="username" required error={fieldErrors.email} />
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
