"use client";
// The bulk checks of the last 7 days (an admin sees everyone's), newest first, refreshed while one is running.
import Link from "next/link";
import useSWR from "swr";

import { JobStatusBadge } from "@/components/portal/purchase-badges";
import { DataTable, type Column, type DataTableError } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import type { BulkJobSummary } from "@/lib/contract/purchases";
import type { ApiRequestError } from "@/lib/portal/api-client";
import { isSettled, percentDone } from "@/lib/portal/purchase-bulk";

import styles from "./bulk.module.css";

const RUNNING_REFRESH_MS = 2000;

function columns(showOwner: boolean): ReadonlyArray<Column<BulkJobSummary>> {
  const all: Array<Column<BulkJobSummary> | null> = [
    {
      id: "created",
      header: "Started",
      rowHeader: true,
      priority: "primary",
      wrap: "nowrap",
      fixedOrder: { direction: "desc", text: "Newest first" },
      cell: (job) => (
        <Link href={`/purchases/bulk/${job.id}`}>
          <LocalTime iso={job.created_at} display="both" />
        </Link>
      ),
    },
    {
      id: "status",
      header: "Status",
      priority: "primary",
      wrap: "nowrap",
      cell: (job) => <JobStatusBadge status={job.status} />,
    },
    { id: "total", header: "Codes", align: "end", cell: (job) => job.total },
    {
      id: "done",
      header: "Checked",
      align: "end",
      wrap: "nowrap",
      cell: (job) => `${job.done} (${percentDone(job)}%)`,
    },
    { id: "valid", header: "Valid", align: "end", cell: (job) => job.valid },
    { id: "invalid", header: "Invalid", align: "end", cell: (job) => job.invalid },
    { id: "failed", header: "Failed", align: "end", cell: (job) => job.failed },
    showOwner
      ? {
          id: "by",
          header: "Started by",
          wrap: "truncate",
          fullText: (job) => job.created_by.email ?? "",
          cell: (job) => job.created_by.email ?? "Unknown",
        }
      : null,
  ];
  return all.filter((column): column is Column<BulkJobSummary> => column !== null);
}

export function RecentJobs({ initialJobs, showOwner }: { initialJobs: BulkJobSummary[]; showOwner: boolean }) {
  // Asked again while a job runs or settles (a cancel waits for the checks under way), so its counts end right.
  const running = (jobs: readonly BulkJobSummary[]) => jobs.some((job) => !isSettled(job));
  const { data, error, isLoading, mutate } = useSWR<{ data: BulkJobSummary[] }, ApiRequestError>(
    "/api/purchases/bulk",
    {
      fallbackData: { data: initialJobs },
      revalidateOnMount: running(initialJobs),
      refreshInterval: (latest) => (latest && running(latest.data) ? RUNNING_REFRESH_MS : 0),
    },
  );
  const failure: DataTableError | null = error
    ? {
        title: "The recent bulk checks could not be loaded",
        message: error.message,
        requestId: error.requestId,
        onRetry: () => void mutate(),
      }
    : null;

  return (
    // Not a landmark of its own: the table's region already bears the name (axe: landmark-unique).
    <section className={styles.recent}>
      <h2 id="recent-bulk-checks">Recent bulk checks</h2>
      <p className={styles.muted}>
        Bulk checks and their results are kept for 7 days{showOwner ? "; as an admin you see everyone’s" : ""}.
      </p>
      <DataTable
        caption="Recent bulk checks"
        captionHidden
        columns={columns(showOwner)}
        rows={data?.data}
        rowKey={(job) => job.id}
        loading={isLoading}
        error={failure}
        skeletonRows={3}
        empty={<EmptyState title="No bulk checks in the last 7 days">Checks started above are listed here.</EmptyState>}
      />
    </section>
  );
}
