"use client";
// One bulk job in the browser: polls GET /api/purchases/bulk/{id}/results (the job's summary and one page of its
// results) every second until it is done or cancelled. Page, filter and search are the page's URL (shallow moves:
// reload and a shared link show the same rows); the server pages, filters and searches. The progress bar and
// counts follow each answer; a screen reader hears only status changes (role=status), not every count. Cancel
// asks first; "Re-check failed rows" sends back the rows a retry can pass; "Copy valid codes" and "Copy invalid
// codes" put every such code of the job on the clipboard and say so; the CSV comes from the API. The rows' columns
// are ./result-columns.tsx (a copy button per code, a correction per almost-code); the page is not held to the
// content width, so the table takes what the screen has.
import { useCallback, useMemo, useState } from "react";
import useSWR from "swr";

import { usePersonTimeZone } from "@/components/person-time-zone";
import { JobStatusBadge } from "@/components/portal/purchase-badges";
import { Button } from "@/components/ui/button";
import { buttonClassName } from "@/components/ui/button-styles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { FiltersSheet } from "@/components/ui/filters-sheet";
import { SearchField } from "@/components/ui/search-field";
import { SelectField } from "@/components/ui/select-field";
import { useToast } from "@/components/ui/toast";
import { useApiAction } from "@/components/use-api-form";
import type { BulkJob, BulkJobSummary, BulkResultsPage } from "@/lib/contract/purchases";
import { apiRequest, ApiRequestError, swrFetcher } from "@/lib/portal/api-client";
import { BULK_RESULT_FILTERS, BULK_RESULT_SEARCH_MAX_LENGTH, type BulkResultFilter } from "@/lib/contract/values";
import {
  codesLeft,
  isFinished,
  isSettled,
  jobResultsApiPath,
  jobResultsQueryString,
  parseJobResultsParams,
  percentDone,
  RESULT_FILTER_LABELS,
  statusAnnouncement,
  timeLeftText,
  codesText,
  type JobResultsQuery,
} from "@/lib/portal/purchase-bulk";
import { useListUrl } from "@/lib/portal/use-list-url";

import { ListPages } from "../../../list-pages";
import styles from "../bulk.module.css";
import { resultColumns } from "./result-columns";

const POLL_MS = 1000;

export interface JobViewProps {
  id: string;
  /** The API path of the first view (the URL's page, filter and search), and its answer read by the server. */
  initialKey: string;
  initialPage: BulkResultsPage;
  showOwner: boolean;
}

export function JobView({ id, initialKey, initialPage, showOwner }: JobViewProps) {
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const cancelling = useApiAction();
  const rechecking = useApiAction();
  const [copied, setCopied] = useState("");
  const url = useListUrl<JobResultsQuery>(parseJobResultsParams, jobResultsQueryString, "shallow");
  const { query } = url;
  const { zone } = usePersonTimeZone();
  const key = jobResultsApiPath(id, query);
  const { data, error, isValidating, mutate } = useSWR<BulkResultsPage, ApiRequestError>(
    key,
    swrFetcher<BulkResultsPage>,
    {
      fallbackData: key === initialKey ? initialPage : undefined,
      keepPreviousData: true,
      // The server read the job a moment ago; a settled one will not change, a running one is polled anyway. A
      // cancelled job settles when the checks under way at the cancel have written their results.
      revalidateOnMount: key !== initialKey || !isSettled(initialPage.job),
      refreshInterval: (latest) => (latest && isSettled(latest.job) ? 0 : POLL_MS),
      revalidateOnFocus: false,
    },
  );

  const answer = data ?? initialPage;
  const job = answer.job;
  const finished = isFinished(job.status);
  const retryable = answer.counts.retryable;
  const filtered = Boolean(query.status || query.q);
  const filterOptions = BULK_RESULT_FILTERS.filter(
    (filter) => answer.counts[filter] > 0 || filter === query.status,
  ).map((filter) => ({
    value: filter,
    label: `${RESULT_FILTER_LABELS[filter]} (${answer.counts[filter]})`,
  }));
  const move = useCallback(
    (changes: Partial<JobResultsQuery>) => url.push({ ...query, page: undefined, ...changes }),
    [url, query],
  );

  const cancel = async () => {
    if ((await cancelling.send(`/api/purchases/bulk/${id}`, { method: "DELETE", refresh: mutate })) === false) {
      return false;
    }
    toast.success("The bulk check was cancelled. Codes already checked keep their results.");
    return true;
  };

  const recheck = async () => {
    const sent = await rechecking.send<{ data: BulkJobSummary & { rechecked: number } }>(
      `/api/purchases/bulk/${id}/recheck`,
      { method: "POST", refresh: mutate, onRefused: (failure) => toast.error(failure.message) },
    );
    if (!sent) return;
    toast.success(
      `${sent.data.rechecked} failed ${sent.data.rechecked === 1 ? "code is" : "codes are"} being checked again.`,
    );
  };

  const copyCode = useCallback(async (code: string) => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(`Copied ${code} to the clipboard.`);
    } catch (failure) {
      setCopied(
        `The code could not be copied: ${failure instanceof Error ? failure.message : "the clipboard refused"}.`,
      );
    }
  }, []);
  const columns = useMemo(() => resultColumns((code) => void copyCode(code)), [copyCode]);

  const copyAll = async (kind: "valid" | "invalid") => {
    try {
      // Every such code of the job, not only this page's: read them all (a job has at most 500 codes).
      const all = await apiRequest<{ data: BulkJob }>(`/api/purchases/bulk/${id}`);
      const text = codesText(all.data.results, kind);
      const count = text === "" ? 0 : text.split("\n").length;
      await navigator.clipboard.writeText(text);
      setCopied(`${count} ${kind} ${count === 1 ? "code" : "codes"} copied to the clipboard.`);
    } catch (failure) {
      setCopied(
        `The ${kind} codes could not be copied: ${failure instanceof Error ? failure.message : "the clipboard refused"}.`,
      );
    }
  };

  return (
    // data-wide: the shell lets this page take the screen's width (components/shell/app-shell.module.css).
    <div className={styles.job} data-wide="">
      <p className={styles.meta}>
        Started <LocalTime iso={job.created_at} display="both" />
        {showOwner && job.created_by.email ? ` by ${job.created_by.email}` : ""} · {job.total}{" "}
        {job.total === 1 ? "code" : "codes"}
        {job.duplicates > 0 ? ` (${job.duplicates} ${job.duplicates === 1 ? "duplicate" : "duplicates"} merged)` : ""} ·
        kept until <LocalTime iso={job.expires_at} display="date" />
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
          {job.revoked > 0 ? <Count label="Revoked" value={job.revoked} /> : null}
          {job.refused > 0 ? <Count label="Not purchase codes" value={job.refused} /> : null}
          <Count label="Failed" value={job.failed} />
          <Count label="Left" value={codesLeft(job)} />
          {job.cancelled > 0 ? <Count label="Cancelled" value={job.cancelled} /> : null}
        </dl>
        <TimeLeft job={job} />
        <p role="status" className="visually-hidden">
          {statusAnnouncement(job)}
        </p>
        {error ? (
          <p className={styles.timeLeft}>The latest progress could not be fetched ({error.message}); trying again.</p>
        ) : null}
      </section>

      <section aria-labelledby="bulk-results">
        <div className={styles.resultsHead}>
          <h2 id="bulk-results">Results</h2>
          <div className={styles.actions}>
            {finished && retryable > 0 ? (
              <Button
                variant="primary"
                size="sm"
                loading={rechecking.busy}
                loadingText="Sending…"
                onClick={() => void recheck()}
              >
                Re-check failed rows ({retryable})
              </Button>
            ) : null}
            {job.valid > 0 ? (
              <Button variant="secondary" size="sm" onClick={() => void copyAll("valid")}>
                Copy valid codes
              </Button>
            ) : null}
            {job.invalid + job.revoked + job.refused > 0 ? (
              <Button variant="secondary" size="sm" onClick={() => void copyAll("invalid")}>
                Copy invalid codes
              </Button>
            ) : null}
            <a
              href={`/api/purchases/bulk/${id}.csv?time_zone=${encodeURIComponent(zone)}`}
              download
              className={buttonClassName({ variant: "secondary", size: "sm" })}
            >
              Download CSV
            </a>
          </div>
        </div>
        <p role="status" className={copied ? styles.timeLeft : "visually-hidden"}>
          {copied}
        </p>
        <FiltersSheet
          label="Search and filters"
          activeCount={query.status ? 1 : 0}
          onClear={() => move({ status: undefined })}
          showLabel={`Show ${answer.meta.total} ${answer.meta.total === 1 ? "code" : "codes"}`}
          search={
            <SearchField
              name="q"
              label="Search the results"
              hint="Part of a code, an item, a licence or a reason."
              value={query.q ?? ""}
              maxLength={BULK_RESULT_SEARCH_MAX_LENGTH}
              onSearch={(q) => url.replace({ ...query, page: undefined, q: q || undefined })}
            />
          }
        >
          <SelectField
            name="status"
            label="Show"
            emptyOption={`All codes (${answer.counts.all})`}
            options={filterOptions}
            value={query.status ?? ""}
            onChange={(event) => move({ status: (event.target.value || undefined) as BulkResultFilter | undefined })}
          />
        </FiltersSheet>
        <p role="status" className="visually-hidden">
          {isValidating && !data
            ? "Loading the results…"
            : `${answer.meta.total} ${answer.meta.total === 1 ? "code" : "codes"} shown`}
        </p>
        <DataTable
          caption="Results of the bulk check"
          captionHidden
          columns={columns}
          rows={answer.data}
          rowKey={(row) => row.index}
          loading={url.pending}
          empty={
            <EmptyState
              title={filtered ? "No codes match" : "No codes"}
              action={filtered ? <Button onClick={() => url.push({})}>Show every code</Button> : undefined}
            >
              {filtered ? "Try another search or status." : "This check has no codes."}
            </EmptyState>
          }
        />
        <ListPages
          meta={answer.meta}
          failed={false}
          label="Result pages"
          hrefFor={(page) => url.hrefFor({ ...query, page })}
          onPageChange={(page) => url.push({ ...query, page })}
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
        action={cancelling}
        onConfirm={cancel}
      >
        <p>
          The {codesLeft(job)} {codesLeft(job) === 1 ? "code" : "codes"} not checked yet will not be checked. The{" "}
          {job.done} already checked keep their results.
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
        {job.done} of {job.total} checked. Waiting for the item service until{" "}
        <LocalTime iso={job.waiting_until} display="datetime" />: it asked Gatehouse to slow down. Checking resumes by
        itself.
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
