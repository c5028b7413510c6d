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
import { useApiForm } from "@/components/use-api-form";
import type { Report } from "@/lib/contract/reports";
import { presentErrors } from "@/lib/portal/forms";
import {
  checkReportPassword,
  checkReportUrl,
  parsePrivacy,
  PRIVACY_OPTIONS,
  type PrivacyValue,
} from "@/lib/portal/report-form";
import { REPORT_PASSWORD_MAX_LENGTH, REPORT_PASSWORD_MIN_LENGTH } from "@/lib/contract/values";

import styles from "../../forms.module.css";

type FieldName = "url" | "privacy" | "password";
const LABELS: Record<FieldName, string> = { url: "Web page URL", privacy: "Privacy", password: "Report page password" };
const FIELD_NAMES = Object.keys(LABELS);

export function NewReportForm() {
  const router = useRouter();
  const toast = useToast();
  const [privacy, setPrivacy] = useState<PrivacyValue>(0);
  // A message that belongs to no field of this form is shown above it, with the request id for support.
  const { busy, fields: errors, failure, check, send } = useApiForm({ fieldNames: FIELD_NAMES, leavesOnSuccess: true });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const url = String(form.get("url") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const found = {
      url: checkReportUrl(url),
      password: privacy === 2 ? checkReportPassword(password, true) : undefined,
    };
    if (!check(found)) return;

    const body = privacy === 2 ? { url, privacy, password } : { url, privacy };
    const answer = await send<{ data: Report }>("/api/reports", { method: "POST", body });
    if (!answer) return;
    toast.success(`Report created for ${answer.data.url}.`);
    router.push(`/reports/${answer.data.id}`);
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
          hint={`Visitors of the report page must enter it. At least ${REPORT_PASSWORD_MIN_LENGTH} characters.`}
          error={errors.password}
          maxLength={REPORT_PASSWORD_MAX_LENGTH}
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
