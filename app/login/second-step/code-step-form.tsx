"use client";
// The second step's code: the authenticator app's six digits or a recovery code, sent to
// POST /api/auth/second-factor. Without JavaScript the same form posts itself there, and the route answers with a
// redirect (to the page asked for, or back here with ?error=).
import type { FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { ErrorSummary } from "@/components/ui/error-summary";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import { useApiForm } from "@/components/use-api-form";
import { presentErrors } from "@/lib/portal/forms";

import styles from "../login.module.css";
import { signInFailure } from "../messages";

const WORDS = {
  totp: {
    label: "Code from your authenticator app",
    hint: "Six digits; a new one every 30 seconds.",
    empty: "Enter the 6-digit code your authenticator app shows.",
    autoComplete: "one-time-code",
    inputMode: "numeric",
  },
  recovery: {
    label: "Recovery code",
    hint: "One of the ten codes you saved when you set up your second factor. Each works once.",
    empty: "Enter one of your recovery codes.",
    autoComplete: "off",
    inputMode: "text",
  },
} as const;

export function CodeStepForm({
  method,
  next,
  initialFailure,
}: {
  method: "totp" | "recovery";
  next: string;
  initialFailure: string | null;
}) {
  const words = WORDS[method];
  const labels = { code: words.label };
  const { busy, fields, failure, check, send } = useApiForm({
    fieldNames: ["code"],
    failureOf: (error) => ({ message: signInFailure(error.code, error.retryAfterSeconds) ?? error.message }),
    initialFailure: initialFailure === null ? null : { message: initialFailure },
    leavesOnSuccess: true,
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    if (!check({ code: code ? undefined : words.empty })) return;
    if ((await send("/api/auth/second-factor", { method: "POST", body: { method, code } })) === false) return;
    window.location.assign(next);
  };

  return (
    <form
      method="post"
      action="/api/auth/second-factor"
      noValidate
      onSubmit={(event) => void submit(event)}
      className={styles.form}
      aria-label={words.label}
    >
      <input type="hidden" name="method" value={method} />
      <input type="hidden" name="next" value={next} />
      <ErrorSummary errors={presentErrors(fields)} labels={labels} />
      <FormErrorBanner message={failure?.message} title="Not signed in" />
      <TextField
        name="code"
        label={words.label}
        hint={words.hint}
        autoComplete={words.autoComplete}
        inputMode={words.inputMode}
        required
        error={fields.code}
      />
      <Button type="submit" variant="primary" fullWidth loading={busy} loadingText="Checking…">
        Continue
      </Button>
    </form>
  );
}
