"use client";
// URL, privacy, and a password only when privacy is "Password" (then it is required). Checked here before
// sending; the gateway's own field errors (its checks, or the reports service's) come back inline the same way.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { ErrorSummary } from "@/components/ui/error-summary";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { RadioGroup } from "@/components/ui/radio-group";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import type { Report } from "@/lib/contract/reports";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { presentErrors } from "@/lib/portal/forms";
import {
  checkReportPassword,
  checkReportUrl,
  parsePrivacy,
  PRIVACY_OPTIONS,
  type PrivacyValue,
} from "@/lib/portal/report-form";

import styles from "../../forms.module.css";

type FieldName = "url" | "privacy" | "password";
const LABELS: Record<FieldName, string> = { url: "Web page URL", privacy: "Privacy", password: "Report page password" };

export function NewReportForm() {
  const router = useRouter();
  const toast = useToast();
  const [privacy, setPrivacy] = useState<PrivacyValue>(0);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState<{ message: string; requestId?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const url = String(form.get("url") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const found = {
      url: checkReportUrl(url),
      password: privacy === 2 ? checkReportPassword(password, true) : undefined,
    };
    setErrors(found);
    setFailure(null);
    if (found.url || found.password) return;

    setBusy(true);
    try {
      const body = privacy === 2 ? { url, privacy, password } : { url, privacy };
      const { data } = await apiRequest<{ data: Report }>("/api/reports", { method: "POST", body });
      toast.success(`Report created for ${data.url}.`);
      router.push(`/reports/${data.id}`);
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiRequestError)) throw error;
      const fields = error.fields ?? {};
      const known = { url: fields.url, privacy: fields.privacy, password: fields.password };
      setErrors(known);
      // A message that belongs to no field of this form is shown above it, with the request id for support.
      if (!known.url && !known.privacy && !known.password)
        setFailure({ message: error.message, requestId: error.requestId });
    }
  };

  return (
    <form noValidate className={styles.form} onSubmit={(event) => void submit(event)} aria-label="New report">
      <ErrorSummary errors={presentErrors(errors)} labels={LABELS} />
      <FormErrorBanner title="The report was not created" message={failure?.message} requestId={failure?.requestId} />
      <TextField
        name="url"
        label={LABELS.url}
        type="url"
        inputMode="url"
        autoComplete="url"
        required
        hint="The full address, starting with https:// or http://"
        error={errors.url}
        maxLength={2048}
      />
      <RadioGroup
        name="privacy"
        label={LABELS.privacy}
        options={PRIVACY_OPTIONS}
        value={String(privacy)}
        onChange={(value) => setPrivacy(parsePrivacy(value))}
        error={errors.privacy}
      />
      {privacy === 2 ? (
        <TextField
          name="password"
          label={LABELS.password}
          type="password"
          autoComplete="new-password"
          required
          hint="Visitors of the report page must enter it."
          error={errors.password}
          maxLength={255}
        />
      ) : null}
      <div className={styles.buttons}>
        <Button type="submit" variant="primary" loading={busy} loadingText="Creating…">
          Create report
        </Button>
      </div>
    </form>
  );
}
