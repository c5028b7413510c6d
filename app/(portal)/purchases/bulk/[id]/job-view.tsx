"use client";
// One bulk job in the browser: polls GET /api/purchases/bulk/{id} every second until it is done or cancelled.
// The progress bar and counts follow each answer; a screen reader hears only status changes (role=status), not
// every count. Cancel asks first; the results table filters by status; the CSV comes from the API.
import { useState } from "react";
import useSWR from "swr";

import { CodeStatusBadge, JobStatusBadge } from "@/components/portal/purchase-badges";
import { Button } from "@/components/ui/button";
import { buttonClassName } from "@/components/ui/button-styles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { SelectField } from "@/components/ui/select-field";
import { SupportStatus } from "@/components/ui/support-status";
import { useToast } from "@/components/ui/toast";
import type { BulkJob, BulkJobSummary, BulkResult } from "@/lib/contract/purchases";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { BULK_CODE_STATUSES, type BulkCodeStatus } from "@/lib/contract/values";
import { CODE_STATUS_LABELS, codesLeft, countByStatus, isFinished, percentDone, statusAnnouncement, timeLeftText } from "@/lib/portal/purchase-bulk";

import styles from "../bulk.module.css";

const POLL_MS = 1000;

const dash = <span aria-hidden="true">—</span>;

const RESULT_COLUMNS: ReadonlyArray<Column<BulkResult>> = [
  { id: "index", header: "#", align: "end", cell: (row) => row.index + 1 },
  { id: "code", header: "Code", rowHeader: true, cell: (row) => <code className={styles.code}>{row.code}</code> },
  { id: "status", header: "Status", wrap: "nowrap", cell: (row) => <CodeStatusBadge status={row.status} /> },
  { id: "occurrences", header: "Times in list", align: "end", cell: (row) => row.occurrences },
  {
    id: "reason",
    header: "Reason",
    cell: (row) => (
      <>
        {row.reason ?? (row.notes.length === 0 ? dash : null)}
        {row.notes.length > 0 ? <span className={styles.notes}>{row.notes.join(" ")}</span> : null}
      </>
    ),
  },
  { id: "item", header: "Item", cell: (row) => row.item_name ?? (row.item_id !== null ? `Item ${row.item_id}` : dash) },
  { id: "licence", header: "Licence", cell: (row) => row.license_type ?? dash },
  { id: "support", header: "Support", cell: (row) => (row.status === "valid" ? <SupportStatus supportedUntil={row.supported_until} /> : dash) },
];

export function JobView({ id, initialJob, showOwner }: { id: string; initialJob: BulkJob; showOwner: boolean }) {
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [shown, setShown] = useState<BulkCodeStatus | "">("");
  const { data, error, mutate } = useSWR<{ data: BulkJob }, ApiRequestError>(`/api/purchases/bulk/${id}`, {
    fallbackData: { data: initialJob },
    // The server read the job a moment ago; a finished one will not change, a running one is polled anyway.
    revalidateOnMount: !isFinished(initialJob.status),
    refreshInterval: (latest) => (latest && isFinished(latest.data.status) ? 0 : POLL_MS),
    // Polling already keeps it fresh; a finished job does not change.
    revalidateOnFocus: false,
  });

  const job = (data ?? { data: initialJob }).data;
  const finished = isFinished(job.status);
  const counts = countByStatus(job.results);
  const rows = shown ? job.results.filter((result) => result.status === shown) : job.results;
  const filterOptions = BULK_CODE_STATUSES.filter((status) => counts[status] > 0 || status === shown).map((status) => ({
    value: status,
    label: `${CODE_STATUS_LABELS[status]} (${counts[status]})`,
  }));

  const cancel = async () => {
    try {
      const answer = await apiRequest<{ data: BulkJobSummary }>(`/api/purchases/bulk/${id}`, { method: "DELETE" });
      await mutate((current) => (current ? { data: { ...current.data, ...answer.data } } : current), { revalidate: true });
      toast.success("The bulk check was cancelled. Codes already checked keep their results.");
    } catch (failure) {
      if (failure instanceof ApiRequestError) throw new Error(failure.message);
      throw failure;
    }
  };

  return (
    <div className={styles.job}>
      <p className={styles.meta}>
        Started <LocalTime iso={job.created_at} display="both" />
        {showOwner && job.created_by.email ? ` by ${job.created_by.email}` : ""} · {job.total} {job.total === 1 ? "code" : "codes"}
        {job.duplicates > 0 ? ` (${job.duplicates} ${job.duplicates === 1 ? "duplicate" : "duplicates"} merged)` : ""} · kept until{" "}
        <LocalTime iso={job.expires_at} display="date" />
      </p>

      <section aria-labelledby="bulk-progress" className={styles.progressCard}>
        <div className={styles.progressHead}>
          <h2 id="bulk-progress" className={styles.progressLabel}>
            Progress <JobStatusBadge status={job.status} />
          </h2>
          {!finished ? (
            <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
              Cancel check
            </Button>
          ) : null}
        </div>
        <ProgressBar job={job} />
        <dl className={styles.counts}>
          <Count label="Valid" value={job.valid} />
          <Count label="Invalid" value={job.invalid} />
          <Count label="Failed" value={job.failed} />
          <Count label="Left" value={codesLeft(job)} />
          {job.cancelled > 0 ? <Count label="Cancelled" value={job.cancelled} /> : null}
        </dl>
        <TimeLeft job={job} />
        <p role="status" className="visually-hidden">
          {statusAnnouncement(job)}
        </p>
        {error ? (
          <p className={styles.timeLeft}>
            The latest progress could not be fetched ({error.message}); trying again.
          </p>
        ) : null}
      </section>

      <section aria-labelledby="bulk-results">
        <div className={styles.resultsHead}>
          <h2 id="bulk-results">Results</h2>
          <div className={styles.actions}>
            <SelectField
              name="status"
              label="Show"
              emptyOption={`All codes (${job.results.length})`}
              options={filterOptions}
              value={shown}
              onChange={(event) => setShown(event.target.value as BulkCodeStatus | "")}
            />
            <a href={`/api/purchases/bulk/${id}.csv`} download className={buttonClassName({ variant: "secondary" })}>
              Download CSV
            </a>
          </div>
        </div>
        <DataTable
          caption="Results of the bulk check"
          captionHidden
          columns={RESULT_COLUMNS}
          rows={rows}
          rowKey={(row) => row.index}
          empty={<EmptyState title="No codes with this status">Choose another status to show.</EmptyState>}
        />
      </section>

      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Cancel this bulk check?"
        confirmLabel="Cancel check"
        busyLabel="Cancelling…"
        cancelLabel="Keep checking"
        variant="danger"
        onConfirm={cancel}
      >
        <p>
          The {codesLeft(job)} {codesLeft(job) === 1 ? "code" : "codes"} not checked yet will not be checked. The {job.done} already checked keep their
          results.
        </p>
      </ConfirmDialog>
    </div>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function ProgressBar({ job }: { job: BulkJobSummary }) {
  const percent = percentDone(job);
  return (
    <div
      role="progressbar"
      aria-label="Codes checked"
      aria-valuemin={0}
      aria-valuemax={job.total}
      aria-valuenow={job.done}
      aria-valuetext={`${job.done} of ${job.total} codes checked (${percent}%)`}
      className={styles.track}
    >
      <div className={styles.fill} style={{ width: `${percent}%` }} />
    </div>
  );
}

function TimeLeft({ job }: { job: BulkJobSummary }) {
  if (job.status === "waiting" && job.waiting_until) {
    return (
      <p className={styles.timeLeft}>
        {job.done} of {job.total} checked. Waiting for the item service until <LocalTime iso={job.waiting_until} display="datetime" />: it asked Gatehouse to
        slow down. Checking resumes by itself.
      </p>
    );
  }
  const left = timeLeftText(job.eta_seconds, job.status);
  if (job.status === "queued") return <p className={styles.timeLeft}>Queued: the check starts in a moment.</p>;
  if (left) {
    return (
      <p className={styles.timeLeft}>
        {job.done} of {job.total} checked ({percentDone(job)}%). {left}.
      </p>
    );
  }
  if (job.status === "cancelled") {
    return (
      <p className={styles.timeLeft}>
        Cancelled <LocalTime iso={job.finished_at} display="both" missing="" />: {job.done} of {job.total} checked.
      </p>
    );
  }
  return (
    <p className={styles.timeLeft}>
      Finished <LocalTime iso={job.finished_at} display="both" missing="" />: all {job.total} checked.
    </p>
  );
}
