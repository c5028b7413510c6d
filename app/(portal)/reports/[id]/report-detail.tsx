"use client";
// One report, and the changes a writer may make: privacy and password, regenerate, delete. Each change goes
// to the API; the page shows the report the API answered with, and a toast says what really happened.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore, type FormEvent } from "react";
import useSWR from "swr";

import { PrivacyBadge, ResultBadge, RESULT_LABELS } from "@/components/ui/badge";
import { PRIVACY_NAMES } from "@/lib/contract/values";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DescriptionList } from "@/components/ui/description-list";
import { ErrorSummary } from "@/components/ui/error-summary";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { LocalTime } from "@/components/ui/local-time";
import { RadioGroup } from "@/components/ui/radio-group";
import { SafeLink } from "@/components/ui/safe-link";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import type { HistoryEntry, ReportHistory } from "@/lib/contract/history";
import type { Report } from "@/lib/contract/reports";
import type { ApiRequestError } from "@/lib/portal/api-client";
import { presentErrors } from "@/lib/portal/forms";
import { REPORT_PASSWORD_MAX_LENGTH, REPORT_PASSWORD_MIN_LENGTH } from "@/lib/contract/values";
import { checkReportPassword, parsePrivacy, PRIVACY_OPTIONS, type PrivacyValue } from "@/lib/portal/report-form";

import formStyles from "../../forms.module.css";
import styles from "./report-detail.module.css";

export interface ReportDetailProps {
  initialReport: Report;
  canWrite: boolean;
}

export function ReportDetail({ initialReport, canWrite }: ReportDetailProps) {
  const key = `/api/reports/${initialReport.id}`;
  const { data, mutate } = useSWR<{ data: Report }, ApiRequestError>(key, { fallbackData: { data: initialReport } });
  const report = data?.data ?? initialReport;
  const show = (updated: Report) => void mutate({ data: updated }, { revalidate: false });

  return (
    <div className={styles.layout}>
      <Card title="Details" asSection>
        <DescriptionList
          items={[
            { term: "URL", description: <SafeLink href={report.url} /> },
            {
              term: "Project",
              description: report.project ? (
                <Link href={`/reports?project=${encodeURIComponent(report.project)}`}>{report.project}</Link>
              ) : (
                "None"
              ),
            },
            { term: "Result", description: <ResultBadge result={report.result} /> },
            {
              term: "Generated",
              description: <LocalTime iso={report.generated_at} display="both" missing="Not generated yet" />,
            },
            { term: "Privacy", description: <PrivacyBadge privacy={report.privacy} /> },
            { term: "Report ID", description: <span className="tabular-nums">{report.id}</span> },
          ]}
        />
      </Card>
      <ReportTimeline report={report} />
      <ShareCard report={report} canWrite={canWrite} />
      {canWrite ? (
        <>
          <PrivacyForm report={report} onSaved={show} />
          <ReportActions report={report} onRegenerated={show} />
        </>
      ) : null}
    </div>
  );
}

const SOURCE_WORDS: Record<HistoryEntry["source"], string> = {
  list: "seen in a list",
  show: "seen on its page",
  create: "created",
  regenerate: "regenerated",
  update: "seen after a change",
  schedule: "scheduled regeneration",
};

/** The report's results as Gatehouse saw them, newest first, each change marked. */
function ReportTimeline({ report }: { report: Report }) {
  const key = `/api/reports/${report.id}/history`;
  // The history is written just after an answer: until its newest entry is the result this page shows (the time
  // and the result: a regeneration within the upstream's second keeps the time), ask again.
  const { data, error } = useSWR<{ data: ReportHistory }, ApiRequestError>(key, {
    revalidateOnMount: true, // the server did not render it
    refreshInterval: (latest) => {
      if (!report.generated_at) return 0;
      const newest = latest?.data.entries[0];
      const current =
        newest?.generated_at === new Date(report.generated_at).toISOString() && newest.result === report.result;
      return current ? 0 : 1000;
    },
  });
  const entries = data?.data.entries ?? [];
  const changes = entries.filter((entry) => entry.change === "better" || entry.change === "worse").length;
  return (
    <Card title="Timeline" asSection>
      {error ? <p className={styles.hint}>The timeline could not be loaded: {error.message}</p> : null}
      {!data && !error ? (
        <p className={styles.hint} role="status">
          Loading the timeline…
        </p>
      ) : null}
      {data && entries.length === 0 ? (
        <p className={styles.hint}>Gatehouse has not recorded a result of this report yet.</p>
      ) : null}
      {entries.length > 0 ? (
        <>
          <p className={styles.hint}>
            {entries.length} {entries.length === 1 ? "result" : "results"} recorded, {changes}{" "}
            {changes === 1 ? "change" : "changes"}; kept {data?.data.retention_days} days.
          </p>
          <ol className={styles.timeline} aria-label="Results, newest first">
            {entries.map((entry) => (
              <li key={entry.generated_at} className={styles[entry.change]}>
                <span className={styles.marker} aria-hidden="true">
                  {entry.change === "worse" ? "▼" : entry.change === "better" ? "▲" : "•"}
                </span>
                <span className={styles.entry}>
                  <ResultBadge result={entry.result} />
                  <span className={styles.change}>
                    {entry.change === "worse" || entry.change === "better"
                      ? `${entry.change === "worse" ? "Worse" : "Better"}: was ${RESULT_LABELS[entry.previous_result ?? "good"]}`
                      : entry.change === "first"
                        ? "First result seen"
                        : "Unchanged"}
                  </span>
                  <LocalTime iso={entry.generated_at} display="both" />
                  <span className={styles.source}>{SOURCE_WORDS[entry.source]}</span>
                </span>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </Card>
  );
}

/** Sharing the report: its link to copy and, for a password-protected page, the password (revealed on demand, audited). */
function ShareCard({ report, canWrite }: { report: Report; canWrite: boolean }) {
  const toast = useToast();
  const [revealed, setRevealed] = useState<string | null>(null);
  const revealing = useApiAction();
  // The origin is the browser's (the server may not know the public one); the server renders the path alone.
  const origin = useSyncExternalStore(
    () => () => {},
    () => window.location.origin,
    () => "",
  );
  const link = `${origin}/reports/${report.id}`;

  const copy = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(`${what} copied.`);
    } catch {
      toast.error(`Could not copy the ${what.toLowerCase()}: select it and copy it yourself.`);
    }
  };
  const reveal = async () => {
    const answer = await revealing.send<{ data: { password: string } }>(`/api/reports/${report.id}/password`, {
      method: "POST",
    });
    if (answer) setRevealed(answer.data.password);
  };

  return (
    <Card title="Share" asSection>
      <div className={styles.share}>
        <label className={styles.shareLabel} htmlFor={`share-link-${report.id}`}>
          Link to this report
        </label>
        <div className={styles.shareRow}>
          <input
            id={`share-link-${report.id}`}
            className={styles.shareInput}
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button variant="secondary" onClick={() => void copy(link, "Link")}>
            Copy link
          </Button>
        </div>
        {report.privacy === 2 ? (
          canWrite ? (
            revealed === null ? (
              <div className={styles.shareRow}>
                <Button
                  variant="secondary"
                  loading={revealing.busy}
                  loadingText="Revealing…"
                  onClick={() => void reveal()}
                >
                  Reveal page password
                </Button>
                <span className={styles.hint}>Revealing is recorded in the audit log.</span>
              </div>
            ) : (
              <>
                <label className={styles.shareLabel} htmlFor={`share-password-${report.id}`}>
                  Report page password
                </label>
                <div className={styles.shareRow}>
                  <input id={`share-password-${report.id}`} className={styles.shareInput} readOnly value={revealed} />
                  <Button variant="secondary" onClick={() => void copy(revealed, "Password")}>
                    Copy password
                  </Button>
                  <Button variant="secondary" onClick={() => setRevealed(null)}>
                    Hide
                  </Button>
                </div>
              </>
            )
          ) : (
            <p className={styles.hint}>The report page asks for a password; an editor can reveal it.</p>
          )
        ) : (
          <p className={styles.hint}>
            {report.privacy === 0
              ? "The report page is public."
              : "The report page is private: only its owner can open it."}
          </p>
        )}
        {revealing.failure ? (
          <p className={styles.error} role="alert">
            {revealing.failure.message}
          </p>
        ) : null}
      </div>
    </Card>
  );
}

function PrivacyForm({ report, onSaved }: { report: Report; onSaved: (report: Report) => void }) {
  const toast = useToast();
  const [privacy, setPrivacy] = useState<PrivacyValue>(report.privacy);
  const { busy, fields, failure, check, fail, send } = useApiForm({ fieldNames: ["password"] });
  const [formKey, setFormKey] = useState(0);
  const keepsPassword = report.privacy === 2;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    const problem = privacy === 2 ? checkReportPassword(password, !keepsPassword) : undefined;
    if (!check({ password: problem })) return;
    if (privacy === report.privacy && password === "") {
      fail({ message: "Nothing to change: choose another privacy, or enter a new password." });
      return;
    }

    const body = privacy === 2 && password !== "" ? { privacy, password } : { privacy };
    const answer = await send<{ data: Report }>(`/api/reports/${report.id}`, { method: "PATCH", body });
    if (!answer) return;
    onSaved(answer.data);
    setPrivacy(answer.data.privacy);
    setFormKey((k) => k + 1); // clears the password field
    toast.success(
      answer.data.privacy === report.privacy
        ? "Password changed."
        : `Privacy changed to ${PRIVACY_NAMES[answer.data.privacy]}.`,
    );
  };

  return (
    <Card title="Privacy and password" asSection>
      <form
        key={formKey}
        noValidate
        className={formStyles.form}
        onSubmit={(event) => void submit(event)}
        aria-label="Privacy and password"
      >
        <ErrorSummary errors={presentErrors(fields)} labels={{ password: "Report page password" }} />
        <FormErrorBanner title="Nothing was changed" message={failure?.message} requestId={failure?.requestId} />
        <RadioGroup
          name="privacy"
          id="field-edit-privacy"
          label="Who can open the report page"
          options={PRIVACY_OPTIONS}
          value={String(privacy)}
          onChange={(value) => setPrivacy(parsePrivacy(value))}
        />
        {privacy === 2 ? (
          <TextField
            name="password"
            label={keepsPassword ? "New report page password" : "Report page password"}
            type="password"
            autoComplete="new-password"
            required={!keepsPassword}
            hint={
              keepsPassword
                ? `Leave it empty to keep the current password. A new one: at least ${REPORT_PASSWORD_MIN_LENGTH} characters.`
                : `Visitors of the report page must enter it. At least ${REPORT_PASSWORD_MIN_LENGTH} characters.`
            }
            error={fields.password}
            maxLength={REPORT_PASSWORD_MAX_LENGTH}
          />
        ) : null}
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
            Save privacy
          </Button>
        </div>
      </form>
    </Card>
  );
}

const GONE = "This report no longer exists; someone may have deleted it already.";

function ReportActions({ report, onRegenerated }: { report: Report; onRegenerated: (report: Report) => void }) {
  const router = useRouter();
  const toast = useToast();
  const regeneration = useApiAction();
  const removal = useApiAction({ failureOf: (error) => (error.status === 404 ? { message: GONE } : null) });
  const [confirming, setConfirming] = useState(false);

  const regenerate = async () => {
    const answer = await regeneration.send<{ data: Report }>(`/api/reports/${report.id}`, {
      method: "PATCH",
      body: { results: true },
      onRefused: (error) => toast.error(`The results were not regenerated. ${error.message}`),
    });
    if (!answer) return;
    onRegenerated(answer.data);
    toast.success(`Results regenerated. The result is now ${RESULT_LABELS[answer.data.result]}.`);
  };

  const remove = async () => {
    if ((await removal.send(`/api/reports/${report.id}`, { method: "DELETE" })) === false) return false;
    toast.success(`Deleted the report for ${report.url}.`);
    router.push("/reports");
    return true;
  };

  return (
    <Card title="Actions" asSection>
      <p className={styles.hint}>Regenerating runs the report again; its result may change.</p>
      <div className={formStyles.buttons}>
        <Button
          variant="secondary"
          loading={regeneration.busy}
          loadingText="Regenerating…"
          onClick={() => void regenerate()}
        >
          Regenerate results
        </Button>
        <Button variant="danger" onClick={() => setConfirming(true)}>
          Delete report
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Delete this report?"
        confirmLabel="Delete report"
        busyLabel="Deleting…"
        variant="danger"
        action={removal}
        onConfirm={remove}
      >
        <p>
          The report for <strong className={styles.url}>{report.url}</strong> will be deleted for everyone. This cannot
          be undone.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
